import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { isAppError } from "#app/utils/app-error.ts";

// The shared edge of the organisation settings pages: the actor and organisation come from the
// request context the app layout's middleware filled, never from the form.

export interface SettingsFailure {
  intent: string;
  failure: { code: string };
  /** The member a per-member form was about, so the page shows the failure next to them. */
  userId?: string;
}

/** The service arguments for the current user in the current organisation, with the request's address for the audit log. */
export function settingsServiceArgs(
  context: Readonly<RouterContextProvider>,
  request: Request,
): OrgServiceArgs & { orgId: string } {
  const { user, org } = requireOrg(context);
  return {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
    orgId: org.id,
  };
}

/** A form's own validation failure: 400 with the first issue's code when it is one of ours, else invalid_input. */
export function invalidForm(intent: string, error: z.ZodError, known: readonly string[] = []) {
  const message = error.issues[0]?.message ?? "";
  const code = known.includes(message) ? message : "invalid_input";
  return data<SettingsFailure>({ intent, failure: { code } }, { status: 400 });
}

/** A service refusal (AppError) as the form's translated failure with the service's status; anything else is a bug and propagates. */
export function serviceFailure(intent: string, error: unknown, userId?: string) {
  if (!isAppError(error)) throw error;
  return data<SettingsFailure>(
    { intent, failure: { code: error.code }, ...(userId ? { userId } : {}) },
    { status: error.status },
  );
}
