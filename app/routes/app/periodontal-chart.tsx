import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { z } from "zod";
import { AppPage } from "#app/components/app-page.tsx";
import { PerioExamView } from "#app/components/perio/perio-exam-view.tsx";
import { PerioPatientPicker } from "#app/components/perio/perio-patient-picker.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { loadPerioPage, startPerioExam } from "#app/services/perio/page.server.ts";
import { requireUser } from "#app/services/session/guards.server.ts";
import { optionalIdParam } from "#app/services/session/page-validity.server.ts";
import perioCss from "#app/styles/perio.css?url";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/periodontal-chart";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: perioCss }];

const NewExamSchema = z.object({
  patient_id: z.uuid({ error: "patient_not_found" }),
  exam_date: z.iso.date({ error: "invalid_date" }).optional().or(z.literal("")),
  copy_forward: z.enum(["on"]).optional(),
});

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  const url = pageUrl(request);
  return loadPerioPage(context, request, {
    patientId: optionalIdParam(url, "patient_id"),
    examId: optionalIdParam(url, "exam"),
  });
}

// POST (intent new): create an exam, blank or copied forward, and open it.
export async function action({ context, request }: Route.ActionArgs) {
  requireUser(context, request);
  try {
    const input = NewExamSchema.parse(Object.fromEntries(await readForm(request)));
    const id = await startPerioExam(context, request, {
      patientId: input.patient_id,
      examDate: input.exam_date || undefined,
      copyForward: input.copy_forward === "on",
    });
    const path = localizePath("/periodontal-chart", localeFromPath(pageUrl(request).pathname));
    throw redirect(`${path}?patient_id=${input.patient_id}&exam=${id}`);
  } catch (error) {
    if (error instanceof z.ZodError) return data({ error: error.issues[0]?.message ?? "invalid_input" }, { status: 400 });
    if (isAppError(error) && error.status < 500) return data({ error: error.code }, { status: error.status });
    throw error;
  }
}

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("perio");
  return (
    <AppPage page="periodontalChart">
      {loaderData.kind === "forbidden" ? <p role="alert">{t("errors.forbidden_role")}</p> : null}
      {loaderData.kind === "pick" ? <PerioPatientPicker patients={loaderData.patients} /> : null}
      {loaderData.kind === "patient" ? (
        <PerioExamView
          key={loaderData.exam?.id ?? "none"}
          orgId={loaderData.orgId}
          userId={loaderData.userId}
          patient={loaderData.patient}
          exams={loaderData.exams}
          exam={loaderData.exam}
          defaultNumbering={loaderData.numbering}
          today={loaderData.today}
          error={actionData?.error}
        />
      ) : null}
    </AppPage>
  );
}
