import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { CODING_ROLES } from "./access.server.ts";
import { procedureSuggestions } from "./cases/cases.server.ts";
import type { CodeSystem } from "./codes/table.ts";
import { applyCutoff } from "./cutoff.ts";
import type { CodingEngineEnv } from "./engines/registry.server.ts";
import { codingEngine } from "./engines/registry.server.ts";
import { activeOrgCodes } from "./import/org-codes.server.ts";
import type { Suggestion } from "./model.ts";

/**
 * POST /api/coding/suggest: stateless suggestions for a text (integrations, the benchmark). Nothing
 * is stored; owners and clinicians only, as for coding a visit. Evidence `source: "text"` with
 * offsets into the text sent. "cpt"/"cdt" match the organisation's imported code sets (none: no lines).
 */
export async function suggestForText(
  args: OrgServiceArgs & { orgId: string; env: CodingEngineEnv },
  input: { text: string; language: "en" | "fr" | "es"; systems: CodeSystem[]; limit?: number; minConfidence?: number },
): Promise<{ suggestions: Array<Suggestion & { above_cutoff: boolean }> }> {
  checkOrgId(args.orgId);
  const procedures = await asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), CODING_ROLES);
    return {
      cpt: input.systems.includes("cpt") ? await activeOrgCodes(trx, args.orgId, "cpt") : [],
      cdt: input.systems.includes("cdt") ? await activeOrgCodes(trx, args.orgId, "cdt") : [],
    };
  });
  const sources = [{ source: "text" as const, text: input.text }];
  // The engine's whole ranked list (confident suggestions, then the low-confidence tail), cut by the
  // caller's `limit` / `min_confidence` if given: ranked-list consumers (the benchmark) want it all.
  const suggestions = (await codingEngine(args.env).suggest({ sources, language: input.language, systems: input.systems }))
    .filter((s) => s.confidence >= (input.minConfidence ?? 0))
    .slice(0, input.limit);
  // Every suggestion says whether it is above the confidence cut-off (ADR 43; at most 15 per system).
  return { suggestions: applyCutoff([...suggestions, ...procedureSuggestions(procedures, sources)]) };
}
