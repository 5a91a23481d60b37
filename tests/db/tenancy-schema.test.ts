import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import type { DB } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

/**
 * The tenancy rule of issue 4, checked in the catalog so every later migration inherits it:
 * each table in `public` holding an `org_id` (and `organizations` itself) has an index led by
 * that column, ENABLE + FORCE row-level security and at least one policy; policies call helpers
 * only inside a `(SELECT …)` sub-select; SECURITY DEFINER functions pin search_path and are not
 * executable by PUBLIC; views run with security_invoker.
 */

/** Calls of app.* / auth.* helpers in a policy expression that are not the head of a sub-select. */
function unwrappedHelperCalls(expression: string | null): string[] {
  if (!expression) return [];
  const found: string[] = [];
  for (const match of expression.matchAll(/\b(app|auth)\.[a-z_][a-z0-9_]*\s*\(/gi)) {
    const before = expression.slice(0, match.index).trimEnd();
    if (!/\(\s*select$/i.test(before)) found.push(match[0].replace(/\s*\($/, ""));
  }
  return found;
}

describeEachDatabase("tenancy schema rules", (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
  });

  afterAll(async () => {
    await db.close();
  });

  it("the helper-call detector tells wrapped from unwrapped calls", () => {
    expect(unwrappedHelperCalls("( SELECT app.is_member(t.org_id) AS is_member)")).toEqual([]);
    expect(unwrappedHelperCalls("(user_id = ( SELECT auth.uid() AS uid))")).toEqual([]);
    expect(unwrappedHelperCalls("app.is_member(org_id)")).toEqual(["app.is_member"]);
    expect(unwrappedHelperCalls("((org_id = x) AND app.has_role(org_id, ARRAY['owner'::text]))")).toEqual(["app.has_role"]);
    expect(unwrappedHelperCalls("(user_id = auth.uid())")).toEqual(["auth.uid"]);
  });

  it("covers the organisation tables", async () => {
    const tables = await tenantTables(db.kysely);
    expect(tables.map((t) => t.table)).toEqual(
      expect.arrayContaining(["audit_log", "invitations", "org_members", "organizations"]),
    );
  });

  it("every tenant table has an index led by org_id, enabled and forced RLS, and a policy", async () => {
    expect(tenantTableProblems(await tenantTables(db.kysely))).toEqual([]);
  });

  it("negative control: a bare table with org_id is reported on every count", async () => {
    const rollback = new Error("rollback");
    let problems: string[] = [];
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await sql`create table public.tenancy_schema_probe (id int primary key, org_id uuid not null)`.execute(trx);
        problems = tenantTableProblems(await tenantTables(trx)).filter((p) => p.startsWith("tenancy_schema_probe:"));
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(problems).toEqual([
      "tenancy_schema_probe: no index whose first column is org_id",
      "tenancy_schema_probe: row level security not enabled",
      "tenancy_schema_probe: row level security not forced",
      "tenancy_schema_probe: no policy",
    ]);
  });

  it("policies call helper functions only through (select …)", async () => {
    const { rows } = await sql<{ table: string; policy: string; qual: string | null; with_check: string | null }>`
      select schemaname || '.' || tablename as table, policyname as policy, qual, with_check
      from pg_policies where schemaname not in ('pg_catalog', 'information_schema')`.execute(db.kysely);
    expect(rows.length).toBeGreaterThan(0);
    const problems = rows.flatMap((r) =>
      [...unwrappedHelperCalls(r.qual), ...unwrappedHelperCalls(r.with_check)].map(
        (call) => `${r.table} policy ${r.policy}: ${call}() is not wrapped in (select …)`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it("SECURITY DEFINER functions pin search_path and are not executable by PUBLIC", async () => {
    const { rows } = await sql<{ fn: string; config: string[] | null; public_execute: boolean }>`
      select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as fn,
             p.proconfig as config,
             (p.proacl is null
              or exists (select 1 from aclexplode(p.proacl) a
                         where a.grantee = 0 and a.privilege_type = 'EXECUTE')) as public_execute
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('app', 'public') and p.prosecdef`.execute(db.kysely);
    expect(rows.map((r) => r.fn)).toEqual(
      expect.arrayContaining(["app.is_member(org uuid)", "app.has_role(org uuid, roles text[])"]),
    );
    const problems: string[] = [];
    for (const r of rows) {
      if (!(r.config ?? []).some((c) => c.startsWith("search_path="))) problems.push(`${r.fn}: no fixed search_path`);
      if (r.public_execute) problems.push(`${r.fn}: executable by PUBLIC`);
    }
    expect(problems).toEqual([]);
  });

  it("the app role can run the policy helpers", async () => {
    const { rows } = await sql<{ ok: boolean }>`
      select bool_and(has_function_privilege('murmur_app', p.oid, 'EXECUTE')) as ok
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'app' and p.proname in ('is_member', 'has_role')`.execute(db.kysely);
    expect(rows[0]?.ok).toBe(true);
  });

  it("no view in public runs without security_invoker", async () => {
    const { rows } = await sql<{ view: string }>`
      select c.relname as view from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'v'
        and not exists (select 1 from unnest(coalesce(c.reloptions, '{}')) o
                        where o ~* '^security_invoker=(true|on|yes|1)$')`.execute(db.kysely);
    expect(rows.map((r) => r.view)).toEqual([]);
  });
});

interface TenantTable {
  table: string;
  column: string;
  has_index: boolean;
  rls: boolean;
  force_rls: boolean;
  policies: number;
}

/** Tables in public with an org_id column, plus organizations keyed by id. */
async function tenantTables(executor: Kysely<DB>): Promise<TenantTable[]> {
  const { rows } = await sql<TenantTable>`
    select c.relname as table, a.attname as column,
           exists (select 1 from pg_index i where i.indrelid = c.oid and i.indkey[0] = a.attnum) as has_index,
           c.relrowsecurity as rls, c.relforcerowsecurity as force_rls,
           (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and not a.attisdropped
      and a.attname = case when c.relname = 'organizations' then 'id' else 'org_id' end
    where n.nspname = 'public' and c.relkind in ('r', 'p')
    order by c.relname`.execute(executor);
  return rows;
}

function tenantTableProblems(tables: TenantTable[]): string[] {
  return tables.flatMap((t) => [
    ...(t.has_index ? [] : [`${t.table}: no index whose first column is ${t.column}`]),
    ...(t.rls ? [] : [`${t.table}: row level security not enabled`]),
    ...(t.force_rls ? [] : [`${t.table}: row level security not forced`]),
    ...(t.policies > 0 ? [] : [`${t.table}: no policy`]),
  ]);
}
