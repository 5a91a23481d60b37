import type { RouterContextProvider } from "react-router";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { getPatientRecord, type PatientRecord } from "./patient-record.server.ts";
import { listPatientTable, type PatientTablePage, type PatientTableSort, type SortDir } from "./patient-table.server.ts";

// The /patients and /patients/:id pages' calls (issue 29): the current organisation and user from
// the app layout's context; admins, who see no clinical data, get a notice rather than an error.

export type PatientsPage = { kind: "forbidden" } | ({ kind: "table"; q: string; timeZone: string } & PatientTablePage);

export async function loadPatientsPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { q: string; sort: PatientTableSort; dir: SortDir; page: number },
): Promise<PatientsPage> {
  try {
    const table = await listPatientTable({ ...orgPageArgs(context, request), ...input });
    return { kind: "table", q: input.q, timeZone: requireOrg(context).org.timezone || "UTC", ...table };
  } catch (error) {
    if (isAppError(error) && error.status === 403) return { kind: "forbidden" };
    throw error;
  }
}

export type PatientPage = { kind: "forbidden" } | ({ kind: "patient"; timeZone: string } & PatientRecord);

export async function loadPatientPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  patientId: string,
): Promise<PatientPage> {
  try {
    const record = await getPatientRecord({ ...orgPageArgs(context, request), patientId });
    return { kind: "patient", timeZone: requireOrg(context).org.timezone || "UTC", ...record };
  } catch (error) {
    if (isAppError(error) && error.status === 403) return { kind: "forbidden" };
    throw error;
  }
}
