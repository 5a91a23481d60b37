import type { RouterContextProvider } from "react-router";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
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

function argsOf(context: Readonly<RouterContextProvider>, request: Request): OrgServiceArgs & { orgId: string } {
  const { user, org } = requireOrg(context);
  return {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    orgId: org.id,
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
  };
}

/**
 * /dashboard: the current organisation's patients (searched with `q`) with their latest visits,
 * and its recent visits. Admins see no clinical data (docs/permissions.md): a notice, not an error.
 */
export async function loadDashboard(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { q: string; page: number; visitsPage: number },
): Promise<DashboardPage> {
  const args = argsOf(context, request);
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
  return createPatient({ ...argsOf(context, request), patient });
}
