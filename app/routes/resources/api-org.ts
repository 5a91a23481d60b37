import { z } from "zod";
import { ORG_PLANS, ORG_PMS } from "#app/db/schema.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { billingProvider } from "#app/services/billing/billing.server.ts";
import { CODING_PROFILES } from "#app/services/coding/profile.ts";
import { getOrg, updateOrg } from "#app/services/orgs/orgs.server.ts";
import { AUDIO_RETENTION_MAX_DAYS, AUDIO_RETENTION_MIN_DAYS } from "#app/services/visits/retention.ts";
import { AppError } from "#app/utils/app-error.ts";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-org";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { currentOrgId, handleApi, json, readJson, serviceArgs } from "./org-api.server.ts";

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const UpdateOrgSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200).refine(isStorableLine, { error: INVALID_TEXT }).optional(),
    timezone: z.string().max(64).refine(isTimeZone, "unknown time zone").optional(),
    region: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?:[a-z]{2}(-[a-z0-9]{1,8})*|other)$/)
      .max(32)
      .optional(),
    pms: z.enum(ORG_PMS).optional(),
    plan: z.enum(ORG_PLANS).optional(),
    audio_retention_days: z.number().int().min(AUDIO_RETENTION_MIN_DAYS).max(AUDIO_RETENTION_MAX_DAYS).optional(),
    coding_profile: z.enum(CODING_PROFILES).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, "nothing to update");

// GET /api/orgs/:id: any member; a non-member, an unknown or a malformed id is 404 org_not_found.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    return json(await getOrg({ ...args, orgId: currentOrgId(request, params.id) ?? "" }));
  });
}

// PATCH /api/orgs/:id: owners and admins (settings), owners only for the plan (docs/permissions.md).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed("GET, HEAD, PATCH");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const patch = await readJson(request, UpdateOrgSchema);
    // With a paying provider, a plan is bought through Settings → Billing, never set for free here.
    if (patch.plan !== undefined && billingProvider(context.get(runtimeContext).env).id !== "manual") {
      throw new AppError(409, "plan_change_requires_checkout", "Change the plan from Settings → Billing");
    }
    return json(await updateOrg({ ...args, orgId: currentOrgId(request, params.id) ?? "", patch }));
  });
}
