import { ensurePersonalOrg } from "#app/services/orgs/orgs.server.ts";
import type { Route } from "./+types/api-orgs-personal";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { apiLocale, handleApi, json, serviceArgs } from "./org-api.server.ts";

export { loader } from "./method-not-allowed.ts";

// POST /api/orgs/personal → { id } (SPEC §4 "Organisation bootstrap"): idempotent, safe from two tabs at once;
// named in the Accept-Language language ("Dr Ana Ruiz's practice").
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    return json(await ensurePersonalOrg({ ...args, locale: apiLocale(request) }));
  });
}
