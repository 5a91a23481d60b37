import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole } from "#app/services/orgs/context.server.ts";
import type { SearchResult } from "../codes/table.ts";

export type OrgSystem = "cpt" | "cdt";

/** The organisation's active imported version of `system`, or null when none was imported. */
export async function activeOrgSystem(trx: ActorTransaction, orgId: string, system: OrgSystem) {
  return (
    (await trx
      .selectFrom("org_code_systems")
      .select(["id", "version"])
      .where("org_id", "=", orgId)
      .where("system", "=", system)
      .where("active", "=", true)
      .executeTakeFirst()) ?? null
  );
}

/** Every code of the active imported version (the procedure matcher's input); empty when none was imported. */
export async function activeOrgCodes(trx: ActorTransaction, orgId: string, system: OrgSystem) {
  const active = await activeOrgSystem(trx, orgId, system);
  if (!active) return [];
  const rows = await trx
    .selectFrom("org_codes")
    .select(["code", "short_descriptor", "long_descriptor"])
    .where("org_id", "=", orgId)
    .where("code_system_id", "=", active.id)
    .orderBy("code")
    .execute();
  return rows.map((r) => ({ code: r.code, short: r.short_descriptor, long: r.long_descriptor }));
}

/** One code of the active imported version, with its long descriptor as title. */
export async function orgCode(trx: ActorTransaction, orgId: string, system: OrgSystem, code: string) {
  const active = await activeOrgSystem(trx, orgId, system);
  if (!active) return null;
  const row = await trx
    .selectFrom("org_codes")
    .select(["code", "long_descriptor"])
    .where("org_id", "=", orgId)
    .where("code_system_id", "=", active.id)
    .where("code", "=", code.trim().toUpperCase())
    .executeTakeFirst();
  return row ? { code: row.code, description: row.long_descriptor } : null;
}

/** Search of an imported CPT/CDT version (any member): code prefix, else every word in the descriptor. */
export async function searchOrgCodes(
  args: OrgServiceArgs & { orgId: string; system: OrgSystem; q: string; limit: number },
): Promise<{ system: OrgSystem; version: string | null; results: SearchResult[] }> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    await requireMemberRole(trx, args.orgId, args.actor.userId);
    const active = await activeOrgSystem(trx, args.orgId, args.system);
    if (!active || !args.q.trim()) return { system: args.system, version: active?.version ?? null, results: [] };
    const q = args.q.trim();
    const words = q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
    const like = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    let query = trx
      .selectFrom("org_codes")
      .select(["code", "long_descriptor"])
      .where("org_id", "=", args.orgId)
      .where("code_system_id", "=", active.id);
    query = /^[A-Za-z]?\d{1,4}[0-9A-Za-z]?$/.test(q)
      ? query.where("code", "like", `${q.toUpperCase()}%`)
      : query.where((eb) => eb.and(words.map((w) => eb(sql`lower(long_descriptor)`, "like", like(w)))));
    const rows = await query.orderBy("code").limit(args.limit).execute();
    return {
      system: args.system,
      version: active.version,
      results: rows.map((r) => ({ code: r.code, description: r.long_descriptor, billable: true })),
    };
  });
}
