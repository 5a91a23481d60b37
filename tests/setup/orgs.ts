import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import type { OrgPlan, OrgRole } from "#app/db/schema.ts";

// Factories for tenancy tests. They write through the owner connection (setup only); the code
// under test reads and writes through withActor. Names are unique so suites can share a server.

/** A row in auth.users, as the auth service would create it. */
export async function createAuthUser(
  db: Database,
  options: { email?: string; fullName?: string } = {},
): Promise<{ id: string; email: string }> {
  const email = options.email ?? `user-${randomUUID()}@example.test`;
  const meta = options.fullName ? { full_name: options.fullName } : {};
  const { rows } = await sql<{ id: string }>`
    insert into auth.users (email, email_confirmed_at, raw_user_meta_data)
    values (${email}, now(), ${JSON.stringify(meta)}::jsonb) returning id`.execute(db.kysely);
  const id = rows[0]?.id;
  if (!id) throw new Error("user not created");
  return { id, email };
}

/** A practice organisation with the given members. */
export async function createOrg(
  db: Database,
  members: { userId: string; role: OrgRole }[],
  /** `plan` defaults to the trial; suites that invite freely pick "Clinic" (no member limit). */
  options: { name?: string; plan?: OrgPlan } = {},
): Promise<string> {
  const suffix = randomUUID().slice(0, 8);
  const { rows } = await sql<{ id: string }>`
    insert into public.organizations (name, slug, kind, created_by, trial_ends_at, plan)
    values (${options.name ?? `Practice ${suffix}`}, ${`practice-${suffix}`}, 'practice',
            ${members[0]?.userId ?? null}, now() + interval '14 days', ${options.plan ?? "trial"})
    returning id`.execute(db.kysely);
  const orgId = rows[0]?.id;
  if (!orgId) throw new Error("organisation not created");
  for (const m of members) {
    await sql`insert into public.org_members (org_id, user_id, role) values (${orgId}, ${m.userId}, ${m.role})`.execute(
      db.kysely,
    );
  }
  return orgId;
}

/** An organisation with one user per role. */
export async function createOrgWithEveryRole(db: Database): Promise<{
  orgId: string;
  users: Record<OrgRole, string>;
}> {
  const users = {
    owner: (await createAuthUser(db)).id,
    admin: (await createAuthUser(db)).id,
    clinician: (await createAuthUser(db)).id,
    staff: (await createAuthUser(db)).id,
  };
  const orgId = await createOrg(db, [
    { userId: users.owner, role: "owner" },
    { userId: users.admin, role: "admin" },
    { userId: users.clinician, role: "clinician" },
    { userId: users.staff, role: "staff" },
  ]);
  return { orgId, users };
}
