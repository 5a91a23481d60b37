import { z } from "zod";
import { ADVISORY_CHECK_KINDS } from "#app/services/notes/checks/checks.server.ts";
import { getCheckSettings, setCheckSettings } from "#app/services/notes/checks/settings.server.ts";
import type { Route } from "./+types/api-org-note-checks";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { currentOrgId, handleApi, json, readJson, serviceArgs } from "./org-api.server.ts";

const CheckSettingsSchema = z.strictObject({ advisory: z.array(z.enum(ADVISORY_CHECK_KINDS)).max(ADVISORY_CHECK_KINDS.length) });

// GET /api/orgs/:id/note-checks → { advisory: [...] } (owners and clinicians; issue 27).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    return json(await getCheckSettings({ ...args, orgId: currentOrgId(request, params.id) ?? "" }));
  });
}

// PUT /api/orgs/:id/note-checks { advisory: ["low_confidence" | "omission"] } → { advisory } (owners only).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("GET, HEAD, PUT");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const { advisory } = await readJson(request, CheckSettingsSchema);
    return json(await setCheckSettings({ ...args, orgId: currentOrgId(request, params.id) ?? "", advisory }));
  });
}
