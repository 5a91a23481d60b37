import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { CODING_ROLES } from "./access.server.ts";
import type { CodeSystem } from "./codes/table.ts";
import type { CodingEngineEnv } from "./engines/registry.server.ts";
import { codingEngine } from "./engines/registry.server.ts";
import type { Suggestion } from "./model.ts";

/**
 * POST /api/coding/suggest: stateless suggestions for a text (integrations, the benchmark). Nothing
 * is stored; owners and clinicians only, as for coding a visit. Evidence `source: "text"` with
 * offsets into the text sent.
 */
export async function suggestForText(
  args: OrgServiceArgs & { orgId: string; env: CodingEngineEnv },
  input: { text: string; language: "en" | "fr" | "es"; systems: CodeSystem[] },
): Promise<{ suggestions: Suggestion[] }> {
  checkOrgId(args.orgId);
  await asActor(args, args.orgId, async (trx) =>
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), CODING_ROLES),
  );
  const suggestions = await codingEngine(args.env).suggest({
    sources: [{ source: "text", text: input.text }],
    language: input.language,
    systems: input.systems,
  });
  return { suggestions };
}
