import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import { z } from "zod";
import { PageMeta } from "#app/components/page-meta.tsx";
import { PatientActions } from "#app/components/patients/patient-actions.tsx";
import { PatientTimeline } from "#app/components/patients/patient-timeline.tsx";
import { Page, Section } from "#app/components/ui/page.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import { uploadRecordingFromPage } from "#app/services/patients/patient-upload-page.server.ts";
import { loadPatientPage } from "#app/services/patients/patients-page.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import patientsCss from "#app/styles/patients.css?url";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { ageOn, formatCalendarDate, todayInZone } from "#app/utils/zoned-time.ts";
import type { Route } from "./+types/patient";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: patientsCss }];

const UploadSchema = z.object({
  language: z.enum(["en", "fr", "es"], { error: "invalid_input" }),
  consent: z.literal("on", { error: "consent_required" }),
  // The note's template, drafted when the transcript is ready ("" = the default).
  template_id: z
    .string()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
  audio: z.instanceof(File, { error: "empty_audio" }).refine((f) => f.size > 0, { error: "empty_audio" }),
});

// Issue 29 "Patients": one patient — identity, the timeline of visits and exams, and what to do next.
export async function loader({ context, request, params }: Route.LoaderArgs) {
  assertValidPage(z.uuid().safeParse(params.id).success);
  try {
    return await loadPatientPage(context, request, params.id);
  } catch (error) {
    // Unknown, or another organisation's: the same not-found page.
    if (isAppError(error) && error.status === 404) assertValidPage(false);
    throw error;
  }
}

// "Upload a recording" (multipart): a new visit of this patient with its file, then its page.
export async function action({ context, request, params }: Route.ActionArgs) {
  assertValidPage(z.uuid().safeParse(params.id).success);
  try {
    const form = await readForm(request);
    const input = UploadSchema.parse({
      language: form.get("language"),
      consent: form.get("consent"),
      template_id: form.get("template_id") ?? undefined,
      audio: form.get("audio"),
    });
    const { visitId } = await uploadRecordingFromPage(context, request, {
      patientId: params.id,
      language: input.language,
      templateId: input.template_id,
      file: input.audio,
    });
    throw redirect(`${localizePath("/transcribing", localeFromPath(pageUrl(request).pathname))}?visit_id=${visitId}`);
  } catch (error) {
    if (error instanceof z.ZodError) {
      const message = error.issues[0]?.message ?? "";
      return data({ error: /^[a-z_]{1,60}$/.test(message) ? message : "invalid_input" }, { status: 400 });
    }
    if (isAppError(error) && error.status < 500) return data({ error: error.code }, { status: error.status });
    throw error;
  }
}

function Identity({ loaded }: { loaded: Extract<Route.ComponentProps["loaderData"], { kind: "patient" }> }) {
  const { t } = useTranslation("patients");
  const locale = useLocale();
  const { patient } = loaded;
  const age = patient.date_of_birth ? ageOn(patient.date_of_birth, todayInZone(loaded.timeZone)) : null;
  return (
    <dl className="patient-identity" data-testid="patient-identity">
      <div>
        <dt>{t("table.columns.dateOfBirth")}</dt>
        <dd>
          {patient.date_of_birth
            ? `${formatCalendarDate(patient.date_of_birth, locale)}${age !== null ? ` · ${t("record.age", { count: age })}` : ""}`
            : "—"}
        </dd>
      </div>
      <div>
        <dt>{t("create.sex")}</dt>
        <dd>{patient.sex ? t(`patient.sex.${patient.sex}`) : t("create.sexUnset")}</dd>
      </div>
      <div>
        <dt>{t("table.columns.externalId")}</dt>
        <dd>{patient.external_id ?? "—"}</dd>
      </div>
    </dl>
  );
}

export default function PatientPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("patients");
  const to = useLocalizedPath();
  if (loaderData.kind === "forbidden") {
    return (
      <Page title={t("table.title")}>
        <PageMeta title={t("table.title")} />
        <p role="note">{t("forbidden.message")}</p>
      </Page>
    );
  }
  const { patient } = loaderData;
  return (
    <Page
      title={patient.display_name}
      description={t("record.intro")}
      actions={
        <Link to={to("/patients")} className="ui-button" data-variant="ghost">
          {t("record.back")}
        </Link>
      }
    >
      <PageMeta title={patient.display_name} />
      <Identity loaded={loaderData} />
      <div className="ui-split" data-ratio="2:1">
        <div className="ui-split-pane">
          <Section id="timeline" title={t("record.timeline")}>
            <PatientTimeline entries={loaderData.timeline} patientId={patient.id} hasMore={loaderData.has_more} />
          </Section>
        </div>
        <div className="ui-split-pane">
          <PatientActions patientId={patient.id} error={actionData?.error} />
        </div>
      </div>
    </Page>
  );
}
