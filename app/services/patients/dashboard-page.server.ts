import type { RouterContextProvider } from "react-router";
import { NOTE_ROLES } from "#app/services/notes/access.server.ts";
import { listRecentNotes, type RecentNote } from "#app/services/notes/notes.server.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
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
      /** Notes drafted but not signed (owners and clinicians, who sign; nobody else may read notes). */
      drafts: RecentNote[] | null;
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
    const [patients, visits, drafts] = await Promise.all([
      findPatients({ ...args, q: input.q, page: input.page }),
      listRecentVisits({ ...args, page: input.visitsPage }),
      NOTE_ROLES.includes(requireOrg(context).role) ? listRecentNotes({ ...args, status: "draft", limit: 20 }) : null,
    ]);
    return { kind: "dashboard", q: input.q, patients, visits, drafts };
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
