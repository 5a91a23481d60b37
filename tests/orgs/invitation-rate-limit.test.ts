import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import * as invitationRoute from "#app/routes/resources/api-org-invitation.ts";
import * as resendRoute from "#app/routes/resources/api-org-invitation-resend.ts";
import * as invitationsRoute from "#app/routes/resources/api-org-invitations.ts";
import { renderInvitationEmail } from "#app/services/orgs/invitation-email.server.ts";
import { INVITATION_EMAIL_LIMITS } from "#app/services/orgs/invitation-limits.server.ts";
import { type ApiHarness, type ApiUser, callRoute, openApiHarness } from "#tests/setup/api.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";
import frInvites from "../../locales/fr/invites.json" with { type: "json" };
import { invitationEmails } from "./invitation-helpers.ts";

// Issue 25: "POST …/invitations/:id/resend 20 times in 1.2 s sent 20 e-mails to an outside
// address; revoke/re-invite loops too; the inviter's name, newlines included, goes into the subject".

it("keeps the inviter's name and the organisation on one header line in the subject", async () => {
  const mail = await renderInvitationEmail(
    "en",
    {
      orgName: "Clinic\r\nBcc: victim@example.test",
      inviterName: `Ana\nRuiz\u0000\u202E\u2028${"x".repeat(300)}`,
      inviterEmail: "ana@example.test",
      email: "colleague@example.test",
      role: "staff",
      orgTimezone: "UTC",
      expiresAt: "2031-03-09T04:00:00.000Z",
    },
    "https://x.test/accept-invite?token=t",
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  expect(mail.subject).not.toMatch(/[\u0000-\u001f\u007f\u2028\u2029\u202e]/);
  expect(mail.subject).toContain("Ana Ruiz");
  expect(mail.subject).toContain("Clinic Bcc: victim@example.test");
  expect(mail.subject.length).toBeLessThan(400);
});

describeEachDatabase("invitation email rate limits", (target) => {
  let h: ApiHarness;
  let owner: ApiUser;
  let admin: ApiUser;
  let orgId: string;

  beforeAll(async () => {
    h = await openApiHarness(target);
    owner = await h.user({ fullName: "Ana Ruiz" });
    admin = await h.user({ fullName: "Bruno Admin" });
    orgId = await createOrg(
      h.db,
      [
        { userId: owner.id, role: "owner" },
        { userId: admin.id, role: "admin" },
      ],
      { plan: "Clinic" },
    );
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await sql`delete from auth.rate_limits where bucket like 'invite-email:%'`.execute(h.db.kysely);
  });

  const invite = (user: ApiUser, email: string, acceptLanguage = "en") =>
    callRoute(h, invitationsRoute, {
      method: "POST",
      path: `/api/orgs/${orgId}/invitations`,
      params: { id: orgId },
      token: user.token,
      body: { email, role: "staff" },
      headers: { "accept-language": acceptLanguage },
    });
  const resend = (user: ApiUser, invId: string, acceptLanguage = "en") =>
    callRoute(h, resendRoute, {
      method: "POST",
      path: `/api/orgs/${orgId}/invitations/${invId}/resend`,
      params: { id: orgId, invId },
      token: user.token,
      headers: { "accept-language": acceptLanguage },
    });
  const revoke = (user: ApiUser, invId: string) =>
    callRoute(h, invitationRoute, {
      method: "DELETE",
      path: `/api/orgs/${orgId}/invitations/${invId}`,
      params: { id: orgId, invId },
      token: user.token,
    });

  it("20 resends in a row send at most the per-recipient allowance, then 429 invitation_rate_limited, translated", async () => {
    const to = `outside-${randomUUID().slice(0, 8)}@example.test`;
    const created = await invite(owner, to);
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const statuses: number[] = [];
    let refused: unknown = null;
    for (let i = 0; i < 20; i++) {
      const res = await resend(owner, id, "fr-FR,fr;q=0.9");
      statuses.push(res.status);
      if (res.status === 429) refused = res.body;
    }
    const allowed = INVITATION_EMAIL_LIMITS.perRecipient.limit;
    expect(statuses.filter((s) => s === 200)).toHaveLength(allowed);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - allowed);
    expect(refused).toEqual({ code: "invitation_rate_limited", message: frInvites.errors.invitation_rate_limited });
    // The invitation email plus the allowed resends, not 21.
    expect(await invitationEmails(h.db, to)).toHaveLength(1 + allowed);
  });

  it("a revoke/re-invite loop to one address stops at the per-recipient allowance", async () => {
    const to = `loop-${randomUUID().slice(0, 8)}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await invite(owner, to);
      statuses.push(res.status);
      if (res.status === 201) expect((await revoke(owner, (res.body as { id: string }).id)).status).toBe(204);
    }
    const allowed = INVITATION_EMAIL_LIMITS.perRecipient.limit;
    expect(statuses.filter((s) => s === 201)).toHaveLength(allowed);
    expect(statuses.slice(allowed).every((s) => s === 429)).toBe(true);
    expect(await invitationEmails(h.db, to)).toHaveLength(allowed);
  });

  it("one inviter may send at most the per-inviter allowance an hour; the organisation's other managers still can", async () => {
    const limit = INVITATION_EMAIL_LIMITS.perInviter.limit;
    for (let i = 0; i < limit; i++) {
      expect((await invite(admin, `bulk-${i}-${randomUUID().slice(0, 6)}@example.test`)).status).toBe(201);
    }
    const over = await invite(admin, `bulk-over-${randomUUID().slice(0, 6)}@example.test`);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: "invitation_rate_limited" });
    expect((await invite(owner, `other-${randomUUID().slice(0, 6)}@example.test`)).status).toBe(201);
  });

  it("the organisation as a whole stops at the per-organisation allowance, whoever invites", async () => {
    const { limit } = INVITATION_EMAIL_LIMITS.perOrg;
    const inviters = [owner, admin];
    let sent = 0;
    for (let i = 0; sent < limit; i++) {
      const res = await invite(inviters[i % 2] as ApiUser, `org-${i}-${randomUUID().slice(0, 6)}@example.test`);
      expect(res.status).toBe(201);
      sent++;
    }
    expect((await invite(owner, `org-over-${randomUUID().slice(0, 6)}@example.test`)).status).toBe(429);
    expect((await invite(admin, `org-over2-${randomUUID().slice(0, 6)}@example.test`)).status).toBe(429);
  });
});
