import { z } from "zod";
import { createOrg, listMyOrgs } from "#app/services/orgs/orgs.server.ts";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-orgs";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { handleApi, json, readJson, serviceArgs } from "./org-api.server.ts";

export const CreateOrgSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).refine(isStorableLine, { error: INVALID_TEXT }),
});

// GET /api/orgs: the caller's organisations with their role (issue 4 "API").
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => json(await listMyOrgs(await serviceArgs(request, context))));
}

// POST /api/orgs { name } → 201 { id }: a practice organisation on a trial, owned by the caller.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const { name } = await readJson(request, CreateOrgSchema);
    return json(await createOrg({ ...args, name }), 201);
  });
}
