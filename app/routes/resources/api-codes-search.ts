import { z } from "zod";
import { searchCodes } from "#app/services/coding/codes/search.server.ts";
import { searchOrgCodes } from "#app/services/coding/import/org-codes.server.ts";
import { INVALID_TEXT, isStorableText } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-codes-search";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg, serviceArgs } from "./org-api.server.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

const SearchSchema = z.object({
  system: z.enum(["icd10cm", "hcpcs", "cpt", "cdt"]).default("icd10cm"),
  q: z.string().max(200).refine(isStorableText, { error: INVALID_TEXT }).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// GET /api/codes/search?system=icd10cm&q= → { system, version, results: [{ code, description, billable }] }.
// The built-in code sets are public data, so any signed-in user may search them; CPT and CDT are
// the current organisation's imported, licensed versions (members only; version null when none).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    await serviceArgs(request, context);
    const { system, q, limit } = readQuery(request, SearchSchema);
    if (system === "cpt" || system === "cdt") {
      const { args, org } = await requireApiOrg(request, context);
      return json(await searchOrgCodes({ ...args, orgId: org.id, system, q, limit }));
    }
    return json(searchCodes(system, q, limit));
  });
}

export const action = () => methodNotAllowed("GET, HEAD");
