import type { RouterContextProvider } from "react-router";
import { localeFromPath } from "#app/i18n/config.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { getPatient, type PatientSummary, searchPatients } from "#app/services/patients/patients.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { todayInZone } from "#app/utils/zoned-time.ts";
import { createPerioExam, getPerioExam, listPerioExams, type PerioExam, type PerioExamListItem } from "./exams.server.ts";
import type { Numbering } from "./teeth.ts";

// /periodontal-chart (issue 14): without patient_id a patient picker; with it the patient's exams and
// the open one (`exam`, else the newest). Admins get the forbidden notice (no clinical data).

export type PerioPage =
  | { kind: "forbidden" }
  | { kind: "pick"; patients: PatientSummary[] }
  | {
      kind: "patient";
      orgId: string;
      /** The signed-in user: their voice profile is kept in the browser under this id (ADR 0035). */
      userId: string;
      patient: { id: string; display_name: string; date_of_birth: string | null };
      exams: PerioExamListItem[];
      exam: PerioExam | null;
      /** Issue 14: Universal is the default for US organisations, FDI elsewhere; users may switch. */
      numbering: Numbering;
      today: string;
    };

export async function loadPerioPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  ids: { patientId: string | null; examId: string | null },
): Promise<PerioPage> {
  const args = orgPageArgs(context, request);
  const { org } = requireOrg(context);
  try {
    if (!ids.patientId) return { kind: "pick", patients: await searchPatients({ ...args, limit: 100 }) };
    const patient = await getPatient({ ...args, patientId: ids.patientId });
    const exams = await listPerioExams({ ...args, patientId: patient.id });
    const examId = ids.examId ?? exams[0]?.id ?? null;
    if (ids.examId) assertValidPage(exams.some((e) => e.id === ids.examId));
    const exam = examId ? await getPerioExam({ ...args, examId }) : null;
    return {
      kind: "patient",
      orgId: org.id,
      userId: args.actor.userId,
      patient: { id: patient.id, display_name: patient.display_name, date_of_birth: patient.date_of_birth },
      exams,
      exam,
      // Issue 29: FDI unless both the practice is in the US and the interface is in English
      // (a French or Spanish interface means FDI whatever the region says).
      numbering: org.region.toLowerCase() === "us" && localeFromPath(pageUrl(request).pathname) === "en" ? "universal" : "fdi",
      today: todayInZone(org.timezone),
    };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.status === 403) return { kind: "forbidden" };
    assertValidPage(error.code !== "patient_not_found");
    throw error;
  }
}

/** The "new exam" form: blank or copied forward from the newest exam. */
export async function startPerioExam(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { patientId: string; examDate?: string; copyForward: boolean },
): Promise<string> {
  const args = orgPageArgs(context, request);
  const { org } = requireOrg(context);
  const { id } = await createPerioExam({
    ...args,
    patientId: input.patientId,
    examDate: input.examDate || null,
    copyFrom: input.copyForward ? "latest" : null,
    today: todayInZone(org.timezone),
  });
  return id;
}
