import type { RouterContextProvider } from "react-router";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { findPatients, type ListPage, listRecentVisits, type PatientListItem, type VisitListItem } from "./directory.server.ts";
import { createPatient, type NewPatient } from "./patients.server.ts";

export type DashboardPage =
  | { kind: "forbidden" }
  | {
      kind: "dashboard";
      q: string;
      patients: ListPage<PatientListItem>;
      visits: ListPage<VisitListItem>;
    };

/**
 * /dashboard: the current organisation's patients (searched with `q`) with their latest visits,
 * and its recent visits. Admins see no clinical data (docs/permissions.md): a notice, not an error.
 */
export async function loadDashboard(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { q: string; page: number; visitsPage: number },
): Promise<DashboardPage> {
  const args = orgPageArgs(context, request);
  try {
    const [patients, visits] = await Promise.all([
      findPatients({ ...args, q: input.q, page: input.page }),
      listRecentVisits({ ...args, page: input.visitsPage }),
    ]);
    return { kind: "dashboard", q: input.q, patients, visits };
  } catch (error) {
    if (isAppError(error) && error.status === 403) return { kind: "forbidden" };
    throw error;
  }
}

/** The dashboard's "New patient" form. */
export function createPatientFromPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  patient: NewPatient,
): Promise<{ id: string }> {
  return createPatient({ ...orgPageArgs(context, request), patient });
}
