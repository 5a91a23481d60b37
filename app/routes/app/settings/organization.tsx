import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { CheckSettings } from "#app/components/org-settings/check-settings.tsx";
import { LeaveOrganization } from "#app/components/org-settings/leave-organization.tsx";
import { OrganizationForm } from "#app/components/org-settings/organization-form.tsx";
import { OrganizationPlan } from "#app/components/org-settings/organization-plan.tsx";
import { OrganizationSummary } from "#app/components/org-settings/organization-summary.tsx";
import { SemanticSearch } from "#app/components/org-settings/semantic-search.tsx";
import { SpeechVocabulary } from "#app/components/org-settings/speech-vocabulary.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { ORG_PMS } from "#app/db/schema.ts";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { ADVISORY_CHECK_KINDS } from "#app/services/notes/checks/checks.server.ts";
import { getCheckSettings, setCheckSettings } from "#app/services/notes/checks/settings.server.ts";
import { clearOrgCookieHeader } from "#app/services/org-context/cookie.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { MANAGER_ROLES } from "#app/services/orgs/context.server.ts";
import { removeMember } from "#app/services/orgs/members.server.ts";
import { getOrg, updateOrg } from "#app/services/orgs/orgs.server.ts";
import { getVocabulary, setCustomTerms } from "#app/services/orgs/vocabulary.server.ts";
import { createEmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { getEmbeddingStatus, startReembedding } from "#app/services/rag/embeddings/status.server.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { INVALID_TEXT } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/organization";
import { invalidForm, serviceFailure, settingsServiceArgs } from "./org-settings.server.ts";
import { ORG_REGIONS, organizationActionSchema, supportedTimeZones, withCurrent } from "./organization-schemas.ts";
import { VOCABULARY_FORM_CODES, vocabularyFormSchema } from "./vocabulary-schemas.ts";

const FORM_CODES = [
  "name_required",
  "name_too_long",
  INVALID_TEXT,
  "invalid_timezone",
  "invalid_region",
  "invalid_pms",
  "invalid_retention",
  "invalid_accent",
  "invalid_coding_profile",
  "accent_low_contrast",
];

// Settings → Organisation (issue 4 "Roles, members, invitations"): every member reads it, owners
// and admins edit it, anyone may leave. Owners also see Ask Murmur's re-embedding (issue 12), the
// same status as GET /api/rag/embeddings.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { org, role } = requireOrg(context);
  // The retention lives in the organisation's settings, which the request context does not carry.
  const args = settingsServiceArgs(context, request);
  const details = await getOrg(args);
  const locale = localeFromPath(pageUrl(request).pathname);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: org.timezone });
  const embeddings =
    role === "owner"
      ? await getEmbeddingStatus({ ...args, client: createEmbeddingsClient(context.get(runtimeContext).env) })
      : null;
  // Issue 15 (ADR 0032): the practice's speech vocabulary, owners only (it lists words from signed notes).
  const vocabulary = role === "owner" ? await getVocabulary(args) : null;
  // Issue 27 (ADR 0039): which checks only advise before a signature, owners only.
  const checkSettings = role === "owner" ? await getCheckSettings(args) : null;
  const trialEnds =
    org.plan === "trial" && org.trial_ends_at
      ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: org.timezone }).format(new Date(org.trial_ends_at))
      : null;
  const canEdit = MANAGER_ROLES.includes(role);
  return {
    org: {
      name: org.name,
      kind: org.kind,
      plan: org.plan,
      pms: org.pms,
      timezone: org.timezone,
      region: org.region,
      audio_retention_days: details.audio_retention_days,
      coding_profile: details.coding_profile,
      accent_color: details.accent_color,
    },
    trialEnds,
    canEdit,
    // The choice lists only matter to someone who may submit them.
    timeZones: canEdit ? withCurrent(supportedTimeZones(), org.timezone) : [],
    regions: canEdit ? withCurrent(ORG_REGIONS, org.region) : [],
    pmsOptions: ORG_PMS,
    vocabulary: vocabulary && {
      customTerms: vocabulary.customTerms,
      learned: vocabulary.learned,
      refreshedAt: vocabulary.refreshedAt ? dateTime.format(vocabulary.refreshedAt) : null,
    },
    checkSettings: checkSettings && {
      advisory: checkSettings.advisory,
      saved: pageUrl(request).searchParams.get("saved") === "checks",
    },
    semanticSearch: embeddings && {
      configured: embeddings.configured,
      model: embeddings.model,
      pgvector: embeddings.pgvector,
      state: embeddings.state,
      done: embeddings.done,
      total: embeddings.total,
      error: embeddings.error,
      updatedAt: embeddings.updated_at ? dateTime.format(new Date(embeddings.updated_at)) : null,
    },
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { org, user } = requireOrg(context);
  const body = await readForm(request);
  const form = Object.fromEntries(body);
  if (form.intent === "reembed") {
    // Owners only, and 409 embeddings_not_configured without EMBEDDINGS_*: the service decides.
    try {
      await startReembedding({
        ...settingsServiceArgs(context, request),
        client: createEmbeddingsClient(context.get(runtimeContext).env),
      });
    } catch (error) {
      return serviceFailure("reembed", error);
    }
    return { intent: "reembed", done: true };
  }
  if (form.intent === "checks") {
    // Checkboxes: each ticked kind arrives as its own "advisory" field; unknown values are ignored.
    const ticked = body.getAll("advisory").map(String);
    const advisory = ADVISORY_CHECK_KINDS.filter((k) => ticked.includes(k));
    try {
      await setCheckSettings({ ...settingsServiceArgs(context, request), advisory });
    } catch (error) {
      return serviceFailure("checks", error);
    }
    // Redirect after the post, so a reload does not submit again.
    return redirect(`${pageUrl(request).pathname}?saved=checks#org-note-checks`);
  }
  if (form.intent === "vocabulary") {
    const parsed = vocabularyFormSchema.safeParse(form);
    if (!parsed.success) return invalidForm("vocabulary", parsed.error, VOCABULARY_FORM_CODES);
    try {
      await setCustomTerms({ ...settingsServiceArgs(context, request), terms: parsed.data.terms });
    } catch (error) {
      return serviceFailure("vocabulary", error);
    }
    return { intent: "vocabulary", done: true };
  }
  const intent = form.intent === "update" || form.intent === "leave" ? form.intent : "invalid";
  const parsed = organizationActionSchema(org).safeParse(form);
  if (!parsed.success) return invalidForm(intent, parsed.error, FORM_CODES);
  const args = settingsServiceArgs(context, request);
  if (parsed.data.intent === "leave") {
    try {
      await removeMember({ ...args, userId: user.id });
    } catch (error) {
      return serviceFailure("leave", error);
    }
    // The cookie still names the organisation just left; the next page resolves another one.
    return redirect(localizePath("/dashboard", localeFromPath(pageUrl(request).pathname)), {
      headers: { "Set-Cookie": clearOrgCookieHeader() },
    });
  }
  const { intent: _, ...patch } = parsed.data;
  try {
    await updateOrg({ ...args, patch });
  } catch (error) {
    return serviceFailure("update", error);
  }
  return { intent: "update", done: true };
}

export default function OrganizationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("orgSettings");
  const { org, canEdit, trialEnds } = loaderData;
  return (
    <div className="ui-stack" data-section="organization">
      <Section id="org-settings" title={t("organization.heading")}>
        {canEdit ? (
          <OrganizationForm
            values={org}
            timeZones={loaderData.timeZones}
            regions={loaderData.regions}
            pmsOptions={loaderData.pmsOptions}
            result={actionData}
          />
        ) : (
          <OrganizationSummary values={org} />
        )}
      </Section>
      <OrganizationPlan plan={org.plan} trialEnds={trialEnds} />
      {loaderData.vocabulary ? <SpeechVocabulary view={loaderData.vocabulary} result={actionData} /> : null}
      {loaderData.checkSettings ? (
        <CheckSettings advisory={loaderData.checkSettings.advisory} saved={loaderData.checkSettings.saved} result={actionData} />
      ) : null}
      {loaderData.semanticSearch ? <SemanticSearch status={loaderData.semanticSearch} result={actionData} /> : null}
      <LeaveOrganization orgName={org.name} result={actionData} />
    </div>
  );
}
