import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// Every page lives under the optional ":lang" segment (no prefix = English, /fr, /es; SPEC §2);
// routes/locale.tsx rejects any other prefix. Resource routes are language-independent.
export default [
  route("healthz", "routes/resources/healthz.ts"),
  route("readyz", "routes/resources/readyz.ts"),
  route("api/ping", "routes/resources/api-ping.ts"),
  route("builds/latest.json", "routes/resources/builds-latest.ts"),
  route("_i18n/:locale/messages.json", "routes/resources/i18n-messages.ts"),
  route("_lang", "routes/resources/set-language.ts"),
  route("auth/v1/*", "routes/resources/auth-api.ts"),
  route("dev/mailbox.json", "routes/resources/dev-mailbox-json.ts"),
  route("api/public-config", "routes/resources/api-public-config.ts"),
  route("api/auth/logout", "routes/resources/api-auth-logout.ts"),
  // Organisations (issue 4 "API"; docs/api.md): bearer token or session cookie.
  route("api/orgs", "routes/resources/api-orgs.ts"),
  route("api/orgs/personal", "routes/resources/api-orgs-personal.ts"),
  route("api/orgs/:id", "routes/resources/api-org.ts"),
  route("api/orgs/:id/members", "routes/resources/api-org-members.ts"),
  route("api/orgs/:id/members/:userId", "routes/resources/api-org-member.ts"),
  route("api/orgs/:id/invitations", "routes/resources/api-org-invitations.ts"),
  route("api/orgs/:id/invitations/:invId", "routes/resources/api-org-invitation.ts"),
  route("api/orgs/:id/invitations/:invId/resend", "routes/resources/api-org-invitation-resend.ts"),
  route("api/orgs/current", "routes/resources/api-orgs-current.ts"),
  route("api/invitations/accept", "routes/resources/api-invitations-accept.ts"),
  route("api/billing/stripe/webhook", "routes/resources/api-billing-stripe-webhook.ts"),
  // Patients and visits (issue 5; docs/api.md): bearer token or session cookie, x-org-id.
  route("api/patients", "routes/resources/api-patients.ts"),
  route("api/visits", "routes/resources/api-visits.ts"),
  route("api/visits/:id", "routes/resources/api-visit.ts"),
  route("api/visits/:id/audio/chunks/:seq", "routes/resources/api-visit-audio-chunk.ts"),
  route("api/visits/:id/audio/finish", "routes/resources/api-visit-audio-finish.ts"),
  route("api/visits/:id/audio", "routes/resources/api-visit-audio.ts"),
  route("api/visits/:id/transcript", "routes/resources/api-visit-transcript.ts"),
  route("api/visits/:id/events", "routes/resources/api-visit-events.ts"),
  route("api/visits/:id/audio/file", "routes/resources/api-visit-audio-file.ts"),
  route("api/visits/:id/transcribe", "routes/resources/api-visit-transcribe.ts"),
  // Notes (issue 6; docs/api.md "Notes"): bearer token or session cookie, x-org-id.
  route("api/visits/:id/notes", "routes/resources/api-visit-notes.ts"),
  route("api/notes/:id", "routes/resources/api-note.ts"),
  route("api/notes/:id/events", "routes/resources/api-note-events.ts"),
  route("api/notes/:id/sections/:key/regenerate", "routes/resources/api-note-regenerate.ts"),
  route("api/notes/:id/rating", "routes/resources/api-note-rating.ts"),
  route("api/notes/:id/sign", "routes/resources/api-note-sign.ts"),
  route("api/notes/:id/amendments", "routes/resources/api-note-amendments.ts"),
  route("api/notes/:id/pdf", "routes/resources/api-note-pdf.ts"),
  // Note templates (issue 6 "Templates"; docs/api.md): built-ins are `builtin:<slug>`.
  route("api/templates", "routes/resources/api-templates.ts"),
  route("api/templates/:id", "routes/resources/api-template.ts"),
  route("api/templates/:id/export", "routes/resources/api-template-export.ts"),
  // Ask Murmur (issue 12; docs/api.md "Ask Murmur"): records Q&A with citations, and product help.
  route("api/rag/ask", "routes/resources/api-rag-ask.ts"),
  route("api/rag/search", "routes/resources/api-rag-search.ts"),
  route("api/rag/source", "routes/resources/api-rag-source.ts"),
  // Periodontal chart (issue 14; docs/api.md "Periodontal chart"): bearer token or session cookie, x-org-id.
  route("api/patients/:id/perio-exams", "routes/resources/api-patient-perio-exams.ts"),
  route("api/perio-exams/:id", "routes/resources/api-perio-exam.ts"),
  route("api/perio-exams/:id/compare", "routes/resources/api-perio-exam-compare.ts"),
  route("api/perio-exams/:id/pdf", "routes/resources/api-perio-exam-pdf.ts"),
  // The voice chart's acoustic models (ADR 0014), public static data for the in-browser recogniser.
  route("perio-voice/model/:model/:file", "routes/resources/perio-voice-model.ts"),
  // The organisation switcher and the bootstrap retry (plain form posts; the page reloads in the new org).
  route("_org", "routes/resources/switch-org.ts"),
  // Interface preferences (issue 11): sidebar collapsed, colour theme; plain form posts.
  route("_prefs", "routes/resources/set-prefs.ts"),

  route(":lang?", "routes/locale.tsx", [
    index("routes/index.tsx"),
    layout("routes/layouts/auth.tsx", [
      route("login", "routes/auth/login.tsx"),
      route("signup", "routes/auth/signup.tsx"),
      route("accept-invite", "routes/auth/accept-invite.tsx"),
      route("reset-password", "routes/auth/reset-password.tsx"),
      route("update-password", "routes/auth/update-password.tsx"),
    ]),
    route("auth/callback", "routes/auth/callback.tsx"),
    route("logout", "routes/auth/logout.tsx"),
    route("pricing", "routes/pricing.tsx"),
    route("dev/mailbox", "routes/dev/mailbox.tsx"),
    route("dev/ui", "routes/dev/ui-catalogue.tsx"),
    layout("routes/layouts/marketing.tsx", [
      route("product", "routes/marketing/product.tsx"),
      route("product/coding", "routes/marketing/product-coding.tsx"),
      route("product/transcription", "routes/marketing/product-transcription.tsx"),
      route("about", "routes/marketing/about.tsx"),
      route("contact", "routes/marketing/contact.tsx"),
      route("support", "routes/marketing/support.tsx"),
      route("privacy-policy", "routes/marketing/privacy-policy.tsx"),
      route("terms-of-service", "routes/marketing/terms-of-service.tsx"),
      route("test-upload", "routes/diagnostics/test-upload.tsx"),
      route("test-real-audio", "routes/diagnostics/test-real-audio.tsx"),
    ]),
    layout("routes/layouts/app.tsx", [
      route("dashboard", "routes/app/dashboard.tsx"),
      route("transcribing", "routes/app/transcribing.tsx"),
      route("coding", "routes/app/coding.tsx"),
      route("records-qa", "routes/app/records-qa.tsx"),
      route("periodontal-chart", "routes/app/periodontal-chart.tsx"),
      route("custom-templates", "routes/app/custom-templates.tsx"),
      route("organizations/new", "routes/app/org-new.tsx"),
      route("settings", "routes/app/settings/layout.tsx", [
        index("routes/app/settings/security.tsx"),
        route("organization", "routes/app/settings/organization.tsx"),
        route("members", "routes/app/settings/members.tsx"),
        route("invitations", "routes/app/settings/invitations.tsx"),
        route("audit", "routes/app/settings/audit.tsx"),
        route("billing", "routes/app/settings/billing.tsx"),
      ]),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
