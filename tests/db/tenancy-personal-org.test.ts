import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ActorTransaction, withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import { personalOrgTitleArgument } from "#app/services/orgs/orgs.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser } from "#tests/setup/orgs.ts";

// SPEC §1 / §4 "Organisation bootstrap": the personal organisation, ensured by the user's own
// session (murmur_app through withActor), named from a translated template.
describeEachDatabase("ensure_personal_org() and create_organization()", (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
  });

  afterAll(async () => {
    await db.close();
  });

  const ensure = (trx: ActorTransaction, template?: string) =>
    (template === undefined
      ? sql<{ id: string }>`select public.ensure_personal_org() as id`
      : sql<{ id: string }>`select public.ensure_personal_org(${template}) as id`
    )
      .execute(trx)
      .then((r) => r.rows[0]?.id);

  const personalOrgsOf = async (userId: string) => {
    const { rows } = await sql<{ id: string; name: string; slug: string; kind: string; plan: string; trial_days: number }>`
      select id, name, slug, kind, plan,
             round(extract(epoch from trial_ends_at - created_at) / 86400)::int as trial_days
      from public.organizations where created_by = ${userId} and kind = 'personal'`.execute(db.kysely);
    return rows;
  };
  const membersOf = async (orgId: string) => {
    const { rows } = await sql<{ user_id: string; role: string }>`
      select user_id, role from public.org_members where org_id = ${orgId}`.execute(db.kysely);
    return rows;
  };

  it("creates the caller's personal organisation once, on a 14-day trial, with the caller as owner", async () => {
    const user = await createAuthUser(db, { fullName: "Ana Ruiz" });
    const first = await withActor(db, { userId: user.id, orgId: null }, (trx) => ensure(trx, "Dr %s's practice"));
    const second = await withActor(db, { userId: user.id, orgId: null }, (trx) => ensure(trx, "Cabinet du Dr %s"));
    expect(second).toBe(first);
    const orgs = await personalOrgsOf(user.id);
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({ id: first, name: "Dr Ana Ruiz's practice", kind: "personal", plan: "trial", trial_days: 14 });
    expect(orgs[0]?.slug).toMatch(/^dr-ana-ruiz-s-practice-[a-f0-9]{6}$/);
    expect(await membersOf(first ?? "")).toEqual([{ user_id: user.id, role: "owner" }]);
    // The new owner reads it through row-level security.
    const visible = await withActor(db, { userId: user.id, orgId: first ?? null }, (trx) =>
      trx.selectFrom("organizations").select(["id", "kind"]).execute(),
    );
    expect(visible).toEqual([{ id: first, kind: "personal" }]);
  });

  it("falls back to the email's local part, and keeps the SQL language-neutral", async () => {
    const user = await createAuthUser(db, { email: `jose.garcia.${Date.now()}@example.test` });
    const id = await withActor(db, { userId: user.id, orgId: null }, (trx) => ensure(trx, "Consultorio del Dr. %s"));
    const orgs = await personalOrgsOf(user.id);
    expect(orgs.map((o) => o.id)).toEqual([id]);
    expect(orgs[0]?.name).toBe(`Consultorio del Dr. ${user.email.split("@")[0]}`);

    const other = await createAuthUser(db, { fullName: "Zoë %I 100%" });
    await withActor(db, { userId: other.id, orgId: null }, (trx) => ensure(trx));
    expect((await personalOrgsOf(other.id))[0]?.name).toBe("Zoë %I 100%'s practice");
  });

  // Issue 11: "Dr Ana Ruiz" gave "Dr Dr Ana Ruiz's practice". The name's own title picks the template.
  const TITLED = {
    en: {
      dr: "Dr %s's practice",
      dr_f: "Dr %s's practice",
      pr: "Prof %s's practice",
      pr_f: "Prof %s's practice",
      untitled: "%s's practice",
    },
    fr: {
      dr: "Cabinet du Dr %s",
      dr_f: "Cabinet de la Dre %s",
      pr: "Cabinet du Pr %s",
      pr_f: "Cabinet de la Pr %s",
      untitled: "Cabinet %s",
    },
    es: {
      dr: "Consultorio del Dr. %s",
      dr_f: "Consultorio de la Dra. %s",
      pr: "Consultorio del Prof. %s",
      pr_f: "Consultorio de la Prof.ª %s",
      untitled: "Consultorio de %s",
    },
  };
  const ensureTitled = (trx: ActorTransaction, template: string, titles: object) =>
    sql<{ id: string }>`select public.ensure_personal_org(${template}, ${JSON.stringify(titles)}::jsonb) as id`
      .execute(trx)
      .then((r) => r.rows[0]?.id);

  it.each([
    ["Dr Ana Ruiz", "Dr %s's practice", TITLED.en, "Dr Ana Ruiz's practice"],
    ["dr. Ana Ruiz", "Cabinet du Dr %s", TITLED.fr, "Cabinet du Dr Ana Ruiz"],
    ["Dr Ana Ruiz", "Consultorio del Dr. %s", TITLED.es, "Consultorio del Dr. Ana Ruiz"],
    ["Dra. Ana Ruiz", "Consultorio del Dr. %s", TITLED.es, "Consultorio de la Dra. Ana Ruiz"],
    ["Doctora Ana Ruiz", "Dr %s's practice", TITLED.en, "Dr Ana Ruiz's practice"],
    ["Pr Ana Ruiz", "Cabinet du Dr %s", TITLED.fr, "Cabinet du Pr Ana Ruiz"],
    ["Drake Bell", "Dr %s's practice", TITLED.en, "Dr Drake Bell's practice"],
    ["Ana Ruiz", "Consultorio del Dr. %s", TITLED.es, "Consultorio del Dr. Ana Ruiz"],
  ])("names %j with %j without doubling the title", async (fullName, template, titles, expected) => {
    const user = await createAuthUser(db, { fullName });
    await withActor(db, { userId: user.id, orgId: null }, (trx) => ensureTitled(trx, template, titles));
    expect((await personalOrgsOf(user.id))[0]?.name).toBe(expected);
  });

  // Issue 11's example: Spanish genders the title from the given name ("Dr Ana Ruiz" → "de la Dra."),
  // using the hints the app sends for Spanish only (personalOrgTitleArgument, migration 0032).
  const ES_WITH_NAMES = personalOrgTitleArgument("es");
  it.each([
    ["Dr Ana Ruiz", "Consultorio de la Dra. Ana Ruiz"],
    ["dr. Carmen Ortiz", "Consultorio de la Dra. Carmen Ortiz"],
    ["Ana Ruiz", "Consultorio de la Dra. Ana Ruiz"],
    ["Dr Juan Pérez", "Consultorio del Dr. Juan Pérez"],
    ["Dr Luca Rossi", "Consultorio del Dr. Luca Rossi"],
    ["Dra. Ana Ruiz", "Consultorio de la Dra. Ana Ruiz"],
    ["Prof. María López", "Consultorio de la Prof.ª María López"],
    ["Doctor José María Gil", "Consultorio del Dr. José María Gil"],
    ["Sam Li", "Consultorio del Dr. Sam Li"],
  ])("Spanish: %j is named %j", async (fullName, expected) => {
    const user = await createAuthUser(db, { fullName });
    await withActor(db, { userId: user.id, orgId: null }, (trx) => ensureTitled(trx, "Consultorio del Dr. %s", ES_WITH_NAMES));
    expect((await personalOrgsOf(user.id))[0]?.name).toBe(expected);
  });

  it("French and English keep one form whatever the given name", async () => {
    const fr = await createAuthUser(db, { fullName: "Dr Ana Ruiz" });
    await withActor(db, { userId: fr.id, orgId: null }, (trx) =>
      ensureTitled(trx, "Cabinet du Dr %s", personalOrgTitleArgument("fr")),
    );
    expect((await personalOrgsOf(fr.id))[0]?.name).toBe("Cabinet du Dr Ana Ruiz");
    const en = await createAuthUser(db, { fullName: "Dr Ana Ruiz" });
    await withActor(db, { userId: en.id, orgId: null }, (trx) =>
      ensureTitled(trx, "Dr %s's practice", personalOrgTitleArgument("en")),
    );
    expect((await personalOrgsOf(en.id))[0]?.name).toBe("Dr Ana Ruiz's practice");
  });

  it("strips a doubled title through the one-argument form too; a professor keeps the title as typed", async () => {
    const doctor = await createAuthUser(db, { fullName: "Dr Ana Ruiz" });
    await withActor(db, { userId: doctor.id, orgId: null }, (trx) => ensure(trx, "Dr %s's practice"));
    expect((await personalOrgsOf(doctor.id))[0]?.name).toBe("Dr Ana Ruiz's practice");
    const professor = await createAuthUser(db, { fullName: "Prof. Ana Ruiz" });
    await withActor(db, { userId: professor.id, orgId: null }, (trx) => ensure(trx, "Dr %s's practice"));
    expect((await personalOrgsOf(professor.id))[0]?.name).toBe("Prof. Ana Ruiz's practice");
  });

  it("is race-safe: five concurrent calls make exactly one organisation and one owner membership", async () => {
    const user = await createAuthUser(db, { fullName: "Tab Racer" });
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => withActor(db, { userId: user.id, orgId: null }, (trx) => ensure(trx, "Dr %s's practice"))),
    );
    const orgs = await personalOrgsOf(user.id);
    expect(orgs).toHaveLength(1);
    expect(new Set(ids)).toEqual(new Set([orgs[0]?.id]));
    expect(await membersOf(orgs[0]?.id ?? "")).toEqual([{ user_id: user.id, role: "owner" }]);
  });

  it("refuses anonymous callers", async () => {
    await expect(withActor(db, { userId: null, orgId: null }, (trx) => ensure(trx))).rejects.toThrow(/not signed in/);
  });

  it("create_organization() makes a practice organisation on a trial, owned by the caller", async () => {
    const user = await createAuthUser(db);
    const id = await withActor(db, { userId: user.id, orgId: null }, async (trx) => {
      const { rows } = await sql<{ id: string }>`select public.create_organization('Clínica Sonrisa') as id`.execute(trx);
      return rows[0]?.id;
    });
    const { rows } = await sql<{ name: string; slug: string; kind: string; plan: string; has_trial: boolean }>`
      select name, slug, kind, plan, trial_ends_at > now() + interval '13 days' as has_trial
      from public.organizations where id = ${id}`.execute(db.kysely);
    expect(rows[0]).toMatchObject({ name: "Clínica Sonrisa", kind: "practice", plan: "trial", has_trial: true });
    expect(rows[0]?.slug).toMatch(/^cl-nica-sonrisa-[a-f0-9]{6}$/);
    expect(await membersOf(id ?? "")).toEqual([{ user_id: user.id, role: "owner" }]);
    await expect(
      withActor(db, { userId: user.id, orgId: null }, (trx) => sql`select public.create_organization('   ')`.execute(trx)),
    ).rejects.toThrow(/check constraint/);
  });
});
