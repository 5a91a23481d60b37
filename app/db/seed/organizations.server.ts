import { sql } from "kysely";
import type { OrgRole } from "#app/db/schema.ts";
import { createEmailUser } from "#app/services/auth/accounts.server.ts";
import { hashPassword } from "#app/services/auth/passwords.server.ts";
import { findUserByEmail } from "#app/services/auth/users.server.ts";
import type { Database } from "../database.server.ts";
import type { Seeder } from "./run.server.ts";

/** Demo accounts, one per role, all in one practice (docs/permissions.md). */
export const DEMO_USERS: readonly { email: string; fullName: string; role: OrgRole }[] = [
  { email: "owner@demo.murmur.test", fullName: "Ana Ruiz", role: "owner" },
  { email: "admin@demo.murmur.test", fullName: "Louis Martin", role: "admin" },
  { email: "clinician@demo.murmur.test", fullName: "Sofía Herrera", role: "clinician" },
  { email: "staff@demo.murmur.test", fullName: "Chloé Petit", role: "staff" },
];
export const DEMO_ORG_SLUG = "demo-clinique-lumiere";
export const DEFAULT_DEMO_PASSWORD = "Murmur-Demo-2026";

/**
 * Demo organisation data for a fresh install: four confirmed accounts sharing a password
 * (SEED_DEMO_PASSWORD), a practice on the Practice plan (four members and an invitation: more than
 * the trial allows) linked to MacPractice (so the practice-management banner shows) and a pending invitation. Writes as the owner connection: seeding is set-up, not a
 * user action. Running it again changes nothing.
 */
export function organizationsSeeder(password = process.env.SEED_DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD): Seeder {
  return {
    name: "organisations",
    async run(db: Database) {
      const ids: Record<string, string> = {};
      let created = 0;
      for (const demo of DEMO_USERS) {
        const existing = await findUserByEmail(db.kysely, demo.email);
        const user =
          existing ??
          (await createEmailUser(
            { db },
            {
              email: demo.email,
              passwordHash: await hashPassword(password),
              data: { full_name: demo.fullName },
              confirmed: true,
            },
          ));
        if (!user) throw new Error(`demo user ${demo.email} could not be created`);
        if (!existing) created++;
        ids[demo.role] = user.id;
      }
      const org = await db.kysely.selectFrom("organizations").select("id").where("slug", "=", DEMO_ORG_SLUG).executeTakeFirst();
      if (org) return `demo practice already present; ${created} account(s) added`;
      const { rows } = await sql<{ id: string }>`
        insert into public.organizations (name, slug, kind, plan, pms, timezone, region, created_by)
        values ('Clinique Lumière (demo)', ${DEMO_ORG_SLUG}, 'practice', 'practice', 'macpractice', 'Europe/Paris', 'eu',
                ${ids.owner})
        returning id`.execute(db.kysely);
      const orgId = rows[0]?.id;
      if (!orgId) throw new Error("demo practice not created");
      for (const demo of DEMO_USERS) {
        await sql`insert into public.org_members (org_id, user_id, role) values (${orgId}, ${ids[demo.role]}, ${demo.role})`.execute(
          db.kysely,
        );
      }
      await sql`
        insert into public.invitations (org_id, email, role, token_hash, invited_by)
        values (${orgId}, 'invitee@demo.murmur.test', 'clinician', ${`seed-${orgId}`}, ${ids.owner})`.execute(db.kysely);
      await sql`
        insert into public.audit_log (org_id, actor_id, action, entity, entity_id, details)
        values (${orgId}, ${ids.owner}, 'org.created', 'organization', ${orgId}, '{"source":"seed"}'::jsonb)`.execute(db.kysely);
      return `demo practice created with ${DEMO_USERS.length} members (${DEMO_USERS.map((u) => u.email).join(", ")}; password: ${password})`;
    },
  };
}
