import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as acceptRoute from "#app/routes/resources/api-invitations-accept.ts";
import * as invitationRoute from "#app/routes/resources/api-org-invitation.ts";
import * as resendRoute from "#app/routes/resources/api-org-invitation-resend.ts";
import * as invitationsRoute from "#app/routes/resources/api-org-invitations.ts";
import { hashToken } from "#app/services/auth/crypto.server.ts";
import { invitationLink, renderInvitationEmail } from "#app/services/orgs/invitation-email.server.ts";
import { getInvitationPreview } from "#app/services/orgs/invitation-preview.server.ts";
import { type ApiHarness, type ApiUser, callRoute, openApiHarness } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";
import enEmails from "../../locales/en/emails.json" with { type: "json" };
import esEmails from "../../locales/es/emails.json" with { type: "json" };
import frEmails from "../../locales/fr/emails.json" with { type: "json" };
import { acceptLink, invitationEmails } from "./invitation-helpers.ts";

// Issue 4 "Invitations: invite by email with a role → translated email with /accept-invite?token=…,
// list, resend, revoke". The raw token only ever travels in the email.

const EMAILS = { en: enEmails, fr: frEmails, es: esEmails };
const LANGS = [
  { lang: "en", acceptLanguage: "en-US,en;q=0.9", prefix: "" },
  { lang: "fr", acceptLanguage: "fr-CA,fr;q=0.9", prefix: "/fr" },
  { lang: "es", acceptLanguage: "es-MX,es;q=0.8,en;q=0.5", prefix: "/es" },
] as const;

it("renders the invitation in each language with the link, the organisation, the inviter, the role and the date, HTML-escaped", async () => {
  const link = invitationLink("https://scribe.example.org/", "fr", "tok_EN-123456789012345");
  expect(link).toBe("https://scribe.example.org/fr/accept-invite?token=tok_EN-123456789012345");
  expect(invitationLink("https://scribe.example.org", "en", "abcdefghijklmnop")).toBe(
    "https://scribe.example.org/accept-invite?token=abcdefghijklmnop",
  );
  const preview = {
    orgName: "Cabinet <Dupont> & Fils",
    inviterName: "Ana Ruiz",
    inviterEmail: "ana@example.test",
    email: "colleague@example.test",
    role: "clinician" as const,
    // 8 March 2031, 23:00 in New York, the inviting organisation's zone (already the 9th in UTC).
    orgTimezone: "America/New_York",
    expiresAt: "2031-03-09T04:00:00.000Z",
  };
  const subjects = new Set<string>();
  for (const { lang } of LANGS) {
    const mail = await renderInvitationEmail(lang, preview, link);
    subjects.add(mail.subject);
    const role = EMAILS[lang].invitation.roles.clinician;
    const day = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "America/New_York" }).format(
      new Date(preview.expiresAt),
    );
    for (const part of [link, preview.orgName, "Ana Ruiz (ana@example.test)", role, day, preview.email]) {
      expect(mail.text, `${lang} text has ${part}`).toContain(part);
    }
    expect(mail.subject).toContain(preview.orgName);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain("Cabinet &#60;Dupont&#62; &#38; Fils");
    expect(mail.html).not.toContain("<Dupont>");
    expect(mail.html).toContain(`lang="${lang}"`);
  }
  // Real translations, not English copies.
  expect(subjects.size).toBe(3);
  // The expiry is the organisation's day, not UTC's.
  expect((await renderInvitationEmail("en", preview, link)).text).toContain("March 8, 2031");
  expect((await renderInvitationEmail("en", preview, link)).text).not.toContain("March 9, 2031");
  expect((await renderInvitationEmail("fr", { ...preview, orgTimezone: "Europe/Paris" }, link)).text).toContain("9 mars 2031");
});

describeEachDatabase("invitation emails, resend and listing", (target) => {
  let h: ApiHarness;
  let owner: ApiUser;
  let admin: ApiUser;
  let clinician: ApiUser;
  let outsider: ApiUser;
  let orgId: string;
  let orgName: string;

  beforeAll(async () => {
    h = await openApiHarness(target);
    owner = await h.user({ fullName: "Ana Ruiz" });
    admin = await h.user({ fullName: "Bruno Admin" });
    clinician = await h.user();
    outsider = await h.user();
    orgName = `Clinique Soleil ${randomUUID().slice(0, 6)}`;
    orgId = await createOrg(
      h.db,
      [
        { userId: owner.id, role: "owner" },
        { userId: admin.id, role: "admin" },
        { userId: clinician.id, role: "clinician" },
      ],
      { name: orgName, plan: "Clinic" },
    );
    await createOrg(h.db, [{ userId: outsider.id, role: "owner" }]);
  });

  afterAll(async () => {
    await h.close();
  });

  const invite = (user: ApiUser | null, body: unknown, acceptLanguage = "en") =>
    callRoute(h, invitationsRoute, {
      method: "POST",
      path: `/api/orgs/${orgId}/invitations`,
      params: { id: orgId },
      token: user?.token ?? null,
      body,
      headers: { "accept-language": acceptLanguage },
    });
  const resend = (user: ApiUser | null, invId: string, acceptLanguage = "en") =>
    callRoute(h, resendRoute, {
      method: "POST",
      path: `/api/orgs/${orgId}/invitations/${invId}/resend`,
      params: { id: orgId, invId },
      token: user?.token ?? null,
      headers: { "accept-language": acceptLanguage },
    });
  const accept = (user: ApiUser, token: string) =>
    callRoute(h, acceptRoute, { method: "POST", path: "/api/invitations/accept", token: user.token, body: { token } });
  const list = (user: ApiUser | null) =>
    callRoute(h, invitationsRoute, {
      method: "GET",
      path: `/api/orgs/${orgId}/invitations`,
      params: { id: orgId },
      token: user?.token ?? null,
    });
  const auditCount = async (action: string, entityId: string, actorId: string) => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.audit_log
      where org_id = ${orgId} and action = ${action} and entity_id = ${entityId} and actor_id = ${actorId}`.execute(h.db.kysely);
    return rows[0]?.n ?? 0;
  };

  for (const { lang, acceptLanguage, prefix } of LANGS) {
    it(`POST /api/orgs/:id/invitations emails the link in the Accept-Language language (${lang}); the response has no token`, async () => {
      const to = `colleague-${lang}-${randomUUID().slice(0, 8)}@example.test`;
      const res = await invite(owner, { email: to, role: "staff" }, acceptLanguage);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body as object)).toEqual(["id"]);
      const id = (res.body as { id: string }).id;
      const mails = await invitationEmails(h.db, to);
      expect(mails).toHaveLength(1);
      const mail = mails[0];
      if (!mail) throw new Error("no email");
      expect(mail.locale).toBe(lang);
      expect(mail.subject).toContain(orgName);
      expect(mail.text_body).toContain(orgName);
      expect(mail.text_body).toContain("Ana Ruiz");
      expect(mail.text_body).toContain(EMAILS[lang].invitation.roles.staff);
      expect(mail.html_body).toContain(orgName);
      const { link, token } = acceptLink(mail.text_body);
      expect(link).toBe(`${TEST_SITE_URL}${prefix}/accept-invite?token=${token}`);
      expect(mail.html_body).toContain(`href="${link}"`);
      // Only the hash is stored, and it is the hash of the emailed token.
      const { rows } = await sql<{ token_hash: string }>`select token_hash from public.invitations where id = ${id}`.execute(
        h.db.kysely,
      );
      expect(rows[0]?.token_hash).toBe(hashToken(token));
      expect(rows[0]?.token_hash).not.toBe(token);
      expect(await auditCount("invitation.created", id, owner.id)).toBe(1);
    });
  }

  it("the email's expiry is the day on the organisation's clock, read through invitation_preview()", async () => {
    await sql`update public.organizations set timezone = 'America/New_York' where id = ${orgId}`.execute(h.db.kysely);
    try {
      const to = `zoned-${randomUUID().slice(0, 8)}@example.test`;
      expect((await invite(owner, { email: to, role: "staff" })).status).toBe(201);
      const mail = (await invitationEmails(h.db, to))[0];
      if (!mail) throw new Error("no email");
      // Whenever the suite runs: the day printed is the expiry's day in New York.
      const { rows } = await sql<{ expires_at: Date }>`select expires_at from public.invitations where email = ${to}`.execute(
        h.db.kysely,
      );
      const expiry = rows[0]?.expires_at ?? new Date(Number.NaN);
      const newYorkDay = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "America/New_York" }).format(expiry);
      expect(mail.text_body).toContain(newYorkDay);
      // At the edge: 23:30 in New York, already tomorrow in UTC.
      const { token } = acceptLink(mail.text_body);
      await sql`update public.invitations set expires_at = '2031-03-09T04:30:00Z' where email = ${to}`.execute(h.db.kysely);
      const preview = await getInvitationPreview({ db: h.db, viewerId: null, token });
      expect(preview).toMatchObject({ orgTimezone: "America/New_York", expiresAt: "2031-03-09T04:30:00.000Z", state: "pending" });
      if (!preview) throw new Error("no preview");
      const rendered = await renderInvitationEmail("es", preview, "https://x.test/");
      expect(rendered.text).toContain("8 de marzo de 2031");
    } finally {
      await sql`update public.organizations set timezone = 'UTC' where id = ${orgId}`.execute(h.db.kysely);
    }
  });

  it("resend rotates the token: the old link stops working, the new one works; expiry restarts; audited; emailed again", async () => {
    const invitee = await h.user({ email: `resent-${randomUUID().slice(0, 8)}@example.test` });
    const created = await invite(admin, { email: invitee.email, role: "clinician" });
    const id = (created.body as { id: string }).id;
    const oldToken = acceptLink((await invitationEmails(h.db, invitee.email))[0]?.text_body ?? "").token;
    expect(oldToken).not.toBe("");
    // Expired invitations are exactly what a resend is for.
    await sql`update public.invitations set expires_at = now() - interval '1 day' where id = ${id}`.execute(h.db.kysely);
    expect((await getInvitationPreview({ db: h.db, viewerId: null, token: oldToken }))?.state).toBe("expired");

    const res = await resend(admin, id, "es-ES");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, expires_at: expect.any(String) });
    const expiresIn = new Date((res.body as { expires_at: string }).expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 24 * 3600 * 1000 + 60_000);

    const mails = await invitationEmails(h.db, invitee.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.locale).toBe("es");
    const { link, token: newToken } = acceptLink(mails[1]?.text_body ?? "");
    expect(link.startsWith(`${TEST_SITE_URL}/es/accept-invite?token=`)).toBe(true);
    expect(newToken).not.toBe(oldToken);
    expect(await auditCount("invitation.resent", id, admin.id)).toBe(1);

    expect(await getInvitationPreview({ db: h.db, viewerId: null, token: oldToken })).toBeNull();
    expect(await accept(invitee, oldToken)).toEqual({
      status: 404,
      body: { code: "invitation_invalid", message: expect.any(String) },
    });
    expect(await accept(invitee, newToken)).toEqual({ status: 200, body: { org_id: orgId, role: "clinician" } });
    // Accepted: nothing left to resend, and the used link cannot be replayed.
    expect(await resend(owner, id)).toEqual({ status: 409, body: { code: "invitation_used", message: expect.any(String) } });
    expect((await accept(invitee, newToken)).body).toMatchObject({ code: "invitation_used" });
    expect(await invitationEmails(h.db, invitee.email)).toHaveLength(2);
  });

  it("resend follows revoke's rules; refusals send nothing and change nothing", async () => {
    const to = `rules-${randomUUID().slice(0, 8)}@example.test`;
    const ownerInv = (await invite(owner, { email: to, role: "owner" })).body as { id: string };
    const staffInv = (await invite(owner, { email: to, role: "staff" })).body as { id: string };
    const hashes = async () =>
      (
        await sql<{ token_hash: string }>`select token_hash from public.invitations where email = ${to} order by id`.execute(
          h.db.kysely,
        )
      ).rows;
    const before = await hashes();
    const sent = (await invitationEmails(h.db, to)).length;
    const refusals: [ApiUser | null, string, number, string][] = [
      [admin, ownerInv.id, 403, "forbidden_role"],
      [clinician, staffInv.id, 403, "forbidden_role"],
      [outsider, staffInv.id, 404, "org_not_found"],
      [null, staffInv.id, 401, "not_authenticated"],
      [owner, randomUUID(), 404, "invitation_not_found"],
      [owner, "not-a-uuid", 404, "invitation_not_found"],
    ];
    for (const [user, invId, status, code] of refusals) {
      expect(await resend(user, invId)).toEqual({ status, body: { code, message: expect.any(String) } });
    }
    expect(await hashes()).toEqual(before);
    expect(await invitationEmails(h.db, to)).toHaveLength(sent);

    // The owner may resend an owner invitation, an admin a staff one.
    expect((await resend(owner, ownerInv.id)).status).toBe(200);
    expect((await resend(admin, staffInv.id)).status).toBe(200);
    expect(await invitationEmails(h.db, to)).toHaveLength(sent + 2);

    const revoke = await callRoute(h, invitationRoute, {
      method: "DELETE",
      path: `/api/orgs/${orgId}/invitations/${staffInv.id}`,
      params: { id: orgId, invId: staffInv.id },
      token: owner.token,
    });
    expect(revoke.status).toBe(204);
    expect(await resend(owner, staffInv.id)).toEqual({
      status: 410,
      body: { code: "invitation_revoked", message: expect.any(String) },
    });
    expect(await resend(owner, staffInv.id)).toMatchObject({ status: 410 });
    // GET on an action-only route names the method it takes.
    const get = await callRoute(h, resendRoute, { method: "GET", path: "/x", params: { id: orgId, invId: staffInv.id } });
    expect(get).toEqual({ status: 405, body: { code: "method_not_allowed", message: "Method Not Allowed" } });
  });

  it("GET /api/orgs/:id/invitations lists every state with its inviter for owners and admins only, never a token", async () => {
    const tag = randomUUID().slice(0, 8);
    const states = {
      pending: `pending-${tag}@example.test`,
      expired: `expired-${tag}@example.test`,
      revoked: `revoked-${tag}@example.test`,
      accepted: `accepted-${tag}@example.test`,
    };
    const ids: Record<string, string> = {};
    for (const [state, email] of Object.entries(states)) {
      ids[state] = ((await invite(owner, { email, role: "staff" })).body as { id: string }).id;
    }
    await sql`update public.invitations set expires_at = now() - interval '1 minute' where id = ${ids.expired}`.execute(
      h.db.kysely,
    );
    await sql`update public.invitations set revoked_at = now() where id = ${ids.revoked}`.execute(h.db.kysely);
    const acceptedUser = await h.user({ email: states.accepted });
    const acceptedToken = acceptLink((await invitationEmails(h.db, states.accepted))[0]?.text_body ?? "").token;
    expect((await accept(acceptedUser, acceptedToken)).status).toBe(200);

    for (const reader of [owner, admin]) {
      const res = await list(reader);
      expect(res.status).toBe(200);
      const rows = res.body as { id: string; email: string; status: string; inviter_name: string | null }[];
      for (const [state, email] of Object.entries(states)) {
        expect(rows.find((r) => r.id === ids[state])).toMatchObject({
          email,
          role: "staff",
          status: state,
          invited_by: owner.id,
          inviter_email: owner.email,
          inviter_name: "Ana Ruiz",
        });
      }
      const text = JSON.stringify(res.body);
      expect(text).not.toContain("token");
      expect(text).not.toContain(acceptedToken);
    }
    expect(await list(clinician)).toEqual({ status: 403, body: { code: "forbidden_role", message: expect.any(String) } });
    expect(await list(outsider)).toEqual({ status: 404, body: { code: "org_not_found", message: expect.any(String) } });
    expect((await list(null)).status).toBe(401);
  });
});
