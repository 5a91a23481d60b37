import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as page from "#app/routes/app/settings/invitations.tsx";
import { createInvitation } from "#app/services/orgs/invitations.server.ts";
import { type ApiHarness, type ApiUser, openApiHarness } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";
import { acceptLink, appPageContext, formRequest, invitationEmails, runRoute } from "./invitation-helpers.ts";

// Settings → Invitations (issue 4): owners and admins invite, list, resend and revoke; the page
// does not exist for other roles.

interface Row {
  id: string;
  email: string;
  role: string;
  status: string;
  canManage: boolean;
  inviter_name: string | null;
}
interface LoaderData {
  grantableRoles: string[];
  invitations: Row[];
}

describeEachDatabase("Settings → Invitations page", (target) => {
  let h: ApiHarness;
  let people: Record<"owner" | "admin" | "clinician" | "staff", ApiUser>;
  let orgId: string;

  beforeAll(async () => {
    h = await openApiHarness(target);
    people = {
      owner: await h.user({ fullName: "Ana Ruiz" }),
      admin: await h.user({ fullName: "Bruno Admin" }),
      clinician: await h.user(),
      staff: await h.user(),
    };
    orgId = await createOrg(
      h.db,
      Object.entries(people).map(([role, user]) => ({ userId: user.id, role: role as "owner" })),
      { name: `Cabinet Lumière ${randomUUID().slice(0, 6)}`, plan: "Clinic" },
    );
  });

  afterAll(async () => {
    await h.close();
  });

  const load = async (who: keyof typeof people) => {
    const context = await appPageContext(h, people[who], orgId);
    const request = new Request(`${TEST_SITE_URL}/settings/invitations`);
    return runRoute(() => page.loader({ request, context, params: {} } as never));
  };
  const act = async (who: keyof typeof people, fields: Record<string, string>, prefix = "") => {
    const context = await appPageContext(h, people[who], orgId);
    const request = formRequest(`${TEST_SITE_URL}${prefix}/settings/invitations`, fields);
    return runRoute(() => page.action({ request, context, params: {} } as never));
  };

  it("over the plan's member limit the form answers 409 with the translated reason and keeps what was typed", async () => {
    await sql`update public.organizations set plan = 'solo' where id = ${orgId}`.execute(h.db.kysely);
    try {
      const email = `limit-${randomUUID()}@example.test`;
      const res = await act("owner", { intent: "invite", email, role: "staff" });
      expect(res).toMatchObject({ status: 409, data: { intent: "invite", failure: "member_limit_reached", email } });
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.invitations where email = ${email}`.execute(
        h.db.kysely,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await sql`update public.organizations set plan = 'Clinic' where id = ${orgId}`.execute(h.db.kysely);
    }
  });

  it("clinicians and staff get a 404 for the page and its action; owners and admins see it", async () => {
    for (const who of ["clinician", "staff"] as const) {
      expect(await load(who)).toMatchObject({ status: 404, data: { kind: "invalid" } });
      const res = await act(who, { intent: "invite", email: `x-${randomUUID()}@example.test`, role: "staff" });
      expect(res).toMatchObject({ status: 404, data: { kind: "invalid" } });
    }
    expect((await load("owner")).data).toMatchObject({ grantableRoles: ["owner", "admin", "clinician", "staff"] });
    expect((await load("admin")).data).toMatchObject({ grantableRoles: ["admin", "clinician", "staff"] });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.invitations where org_id = ${orgId}
      and email like 'x-%'`.execute(h.db.kysely);
    expect(rows[0]?.n).toBe(0);
  });

  it("inviting from the French page emails the invitee in French and lists the pending invitation", async () => {
    const email = `colleague-${randomUUID().slice(0, 8)}@example.test`;
    const res = await act("admin", { intent: "invite", email: ` ${email} `, role: "clinician" }, "/fr");
    expect(res).toMatchObject({ status: 200, data: { intent: "invite", done: true, email } });
    const mails = await invitationEmails(h.db, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.locale).toBe("fr");
    expect(acceptLink(mails[0]?.text_body ?? "").link).toMatch(/^http:\/\/murmur\.test\/fr\/accept-invite\?token=/);
    const rows = (await load("owner")).data as LoaderData;
    expect(rows.invitations.find((r) => r.email === email)).toMatchObject({
      role: "clinician",
      status: "pending",
      canManage: true,
      inviter_name: "Bruno Admin",
    });
  });

  it("refuses bad input and role escalation with a translated code, and creates nothing", async () => {
    const email = `bad-${randomUUID().slice(0, 8)}@example.test`;
    expect(await act("owner", { intent: "invite", email: "not-an-email", role: "staff" })).toMatchObject({
      status: 400,
      data: { failure: "invalid_input" },
    });
    expect(await act("owner", { intent: "invite", email, role: "superuser" })).toMatchObject({ status: 400 });
    expect(await act("owner", { intent: "resend", invitationId: "nope" })).toMatchObject({ status: 400 });
    expect(await act("owner", { intent: "delete-everything" })).toMatchObject({ status: 400 });
    // The select offers an admin no owner role; a forged form is still refused.
    expect(await act("admin", { intent: "invite", email, role: "owner" })).toMatchObject({
      status: 403,
      data: { intent: "invite", failure: "forbidden_role" },
    });
    expect(await act("owner", { intent: "revoke", invitationId: randomUUID() })).toMatchObject({
      status: 404,
      data: { failure: "invitation_not_found" },
    });
    expect(await invitationEmails(h.db, email)).toHaveLength(0);
  });

  it("resend sends a new link, revoke ends it; an admin cannot manage an owner invitation", async () => {
    const email = `cycle-${randomUUID().slice(0, 8)}@example.test`;
    await act("owner", { intent: "invite", email, role: "staff" });
    const row = ((await load("owner")).data as LoaderData).invitations.find((r) => r.email === email);
    if (!row) throw new Error("invitation not listed");
    const first = acceptLink((await invitationEmails(h.db, email))[0]?.text_body ?? "").token;

    expect(await act("admin", { intent: "resend", invitationId: row.id }, "/es")).toMatchObject({
      status: 200,
      data: { intent: "resend", done: true, email },
    });
    const mails = await invitationEmails(h.db, email);
    expect(mails.map((m) => m.locale)).toEqual(["en", "es"]);
    const second = acceptLink(mails[1]?.text_body ?? "").token;
    expect(second).not.toBe(first);

    expect(await act("admin", { intent: "revoke", invitationId: row.id })).toMatchObject({ status: 200, data: { done: true } });
    const after = ((await load("admin")).data as LoaderData).invitations.find((r) => r.id === row.id);
    expect(after).toMatchObject({ status: "revoked", canManage: false });
    expect(await act("owner", { intent: "resend", invitationId: row.id })).toMatchObject({
      status: 410,
      data: { failure: "invitation_revoked" },
    });

    const ownerInvite = await createInvitation({
      db: h.db,
      actor: { userId: people.owner.id },
      orgId,
      email: `co-owner-${randomUUID().slice(0, 8)}@example.test`,
      role: "owner",
    });
    const asAdmin = ((await load("admin")).data as LoaderData).invitations.find((r) => r.id === ownerInvite.id);
    const asOwner = ((await load("owner")).data as LoaderData).invitations.find((r) => r.id === ownerInvite.id);
    expect(asAdmin?.canManage).toBe(false);
    expect(asOwner?.canManage).toBe(true);
    for (const intent of ["resend", "revoke"]) {
      expect(await act("admin", { intent, invitationId: ownerInvite.id })).toMatchObject({
        status: 403,
        data: { failure: "forbidden_role" },
      });
    }
  });
});
