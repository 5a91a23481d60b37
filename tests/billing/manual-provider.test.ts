import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { billingProvider } from "#app/services/billing/billing.server.ts";
import { manualProvider } from "#app/services/billing/manual-provider.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg, createOrgWithEveryRole } from "#tests/setup/orgs.ts";

// Issue 4 "Plans and trial": the embedded manual provider — an owner picks the plan, it applies at
// once and the audit log records it; nobody else can (docs/permissions.md).

describeEachDatabase("manual billing provider", (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
  });

  afterAll(async () => {
    await db.close();
  });

  const planOf = async (orgId: string) =>
    (await db.kysely.selectFrom("organizations").select("plan").where("id", "=", orgId).executeTakeFirstOrThrow()).plan;
  const auditOf = (orgId: string) =>
    db.kysely
      .selectFrom("audit_log")
      .select(["action", "actor_id", "details", "ip"])
      .where("org_id", "=", orgId)
      .orderBy("id")
      .execute();
  const change = (orgId: string, userId: string, plan: "solo" | "practice" | "Clinic") =>
    manualProvider.startChange({
      db,
      actor: { userId },
      meta: { ip: "127.0.0.1", userAgent: "vitest" },
      orgId,
      plan,
      returnUrl: "http://localhost/settings/billing",
    });

  it("is the provider when STRIPE_SECRET_KEY is not set (or blank); the key selects Stripe", () => {
    try {
      vi.stubEnv("STRIPE_SECRET_KEY", "");
      expect(billingProvider({}).id).toBe("manual");
      vi.stubEnv("STRIPE_SECRET_KEY", "sk_test_x");
      expect(billingProvider({}).id).toBe("stripe");
    } finally {
      vi.unstubAllEnvs();
    }
    expect(manualProvider.canChoose("Clinic")).toBe(true);
  });

  it("an owner changes the plan at once; the audit log records from, to and the provider", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    expect(await change(orgId, users.owner, "practice")).toEqual({ kind: "changed", plan: "practice" });
    expect(await planOf(orgId)).toBe("practice");
    expect(await auditOf(orgId)).toEqual([
      {
        action: "org.plan_changed",
        actor_id: users.owner,
        details: { from: "trial", to: "practice", provider: "manual" },
        ip: "127.0.0.1",
      },
    ]);
  });

  it("choosing the current plan again changes and logs nothing", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    await change(orgId, users.owner, "solo");
    expect(await change(orgId, users.owner, "solo")).toEqual({ kind: "changed", plan: "solo" });
    expect((await auditOf(orgId)).map((a) => a.action)).toEqual(["org.plan_changed"]);
  });

  it("admins, clinicians and staff are refused with 403 forbidden_role and nothing changes", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    for (const role of ["admin", "clinician", "staff"] as const) {
      await expect(change(orgId, users[role], "Clinic"), role).rejects.toMatchObject({ status: 403, code: "forbidden_role" });
    }
    expect(await planOf(orgId)).toBe("trial");
    expect(await auditOf(orgId)).toEqual([]);
  });

  it("the owner of another organisation gets 404 org_not_found, as does a malformed id", async () => {
    const { orgId } = await createOrgWithEveryRole(db);
    const stranger = await createAuthUser(db);
    await createOrg(db, [{ userId: stranger.id, role: "owner" }]);
    await expect(change(orgId, stranger.id, "solo")).rejects.toMatchObject({ status: 404, code: "org_not_found" });
    await expect(change("not-a-uuid", stranger.id, "solo")).rejects.toMatchObject({ status: 404, code: "org_not_found" });
    expect(await planOf(orgId)).toBe("trial");
  });

  it("a return from a checkout means nothing to the manual provider", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const outcome = await manualProvider.completeReturn({
      db,
      actor: { userId: users.owner },
      orgId,
      params: new URLSearchParams("stripe=success&session_id=cs_test_x"),
    });
    expect(outcome).toEqual({ kind: "none" });
    expect(await planOf(orgId)).toBe("trial");
  });
});
