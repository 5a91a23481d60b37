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
  route("api/invitations/accept", "routes/resources/api-invitations-accept.ts"),

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
      route("settings", "routes/app/settings.tsx"),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
