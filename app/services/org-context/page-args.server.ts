import type { RouterContextProvider } from "react-router";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import type { OrgServiceArgs, RequestMeta } from "#app/services/orgs/context.server.ts";
import { requireOrg } from "./current-org.ts";

/** Who asked, for the audit log: the client's address and browser. */
export function requestMeta(context: Readonly<RouterContextProvider>, request: Request): RequestMeta {
  return { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") };
}

/** A signed-in page's service arguments: the user and the current organisation the app layout resolved. */
export function orgPageArgs(context: Readonly<RouterContextProvider>, request: Request): OrgServiceArgs & { orgId: string } {
  const { user, org } = requireOrg(context);
  return { db: context.get(runtimeContext).db, actor: { userId: user.id }, orgId: org.id, meta: requestMeta(context, request) };
}
