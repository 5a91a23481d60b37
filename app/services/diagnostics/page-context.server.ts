import { data, type RouterContextProvider } from "react-router";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { getUser } from "#app/services/session/guards.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { type DiagnosticOrg, diagnosticOrg } from "./diagnostic-visit.server.ts";

// The shared edge of the diagnostic pages: the user from the session, the organisation from the
// cookie (diagnosticOrg), never from the form.

export type DiagnosticAccess =
  | { state: "anonymous" }
  | { state: "no_org" }
  | { state: "forbidden"; orgName: string }
  | { state: "ready"; orgId: string; orgName: string; args: OrgServiceArgs & { orgId: string } };

export async function diagnosticAccess(context: Readonly<RouterContextProvider>, request: Request): Promise<DiagnosticAccess> {
  const user = getUser(context);
  // A session still owing its second factor is not signed in yet (the app requires aal2).
  if (!user || user.mfaRequired) return { state: "anonymous" };
  const args: OrgServiceArgs = {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
  };
  const scope: DiagnosticOrg | null = await diagnosticOrg(args, request.headers.get("cookie"));
  if (!scope) return { state: "no_org" };
  if (!scope.canRecord) return { state: "forbidden", orgName: scope.org.name };
  return { state: "ready", orgId: scope.org.id, orgName: scope.org.name, args: { ...args, orgId: scope.org.id } };
}

/** What the page shows before the work starts: never the service arguments. */
export function publicAccess(access: DiagnosticAccess) {
  if (access.state === "ready") return { state: access.state, orgId: access.orgId, orgName: access.orgName };
  return access;
}

/** An action's refusal as `{ failure: { code } }` with a status; an AppError from a service keeps its own. */
export function diagnosticFailure(code: string, status: number) {
  return data({ failure: { code } }, { status });
}

export function accessFailure(access: Exclude<DiagnosticAccess, { state: "ready" }>) {
  if (access.state === "anonymous") return diagnosticFailure("sign_in_required", 401);
  return diagnosticFailure("forbidden_role", 403);
}

export function serviceFailure(error: unknown) {
  if (!isAppError(error)) throw error;
  return diagnosticFailure(error.code, error.status);
}
