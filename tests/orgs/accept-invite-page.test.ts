import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { createElement } from "react";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import * as page from "#app/routes/auth/accept-invite.tsx";
import { createInvitation, revokeInvitation } from "#app/services/orgs/invitations.server.ts";
import { supabaseContext, userContext } from "#app/services/session/user-context.ts";
import { renderAt } from "#tests/billing/render.ts";
import { type ApiHarness, type ApiUser, openApiHarness } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";
import { formRequest, runRoute } from "./invitation-helpers.ts";

// Issue 4: "/accept-invite shows organisation and inviter; accepting needs a session whose email
// matches (sign in or sign up first, then accept); expired, revoked, used or foreign tokens give a
// clear error" — as a 4xx, never a 500.

interface PageData {
  view: "missing" | "error" | "invitation";
  code?: string;
  viewer?: "anonymous" | "match" | "mismatch";
  invitation?: {
    orgName: string;
    inviterName: string | null;
    inviterEmail: string | null;
    email: string;
    role: string;
    expiresAt?: string;
    timeZone?: string;
  };
  links?: { login: string; signup: string };
}

describeEachDatabase("/accept-invite page", (target) => {
  let h: ApiHarness;
  let owner: ApiUser;
  let orgId: string;
  let orgName: string;

  beforeAll(async () => {
    h = await openApiHarness(target);
    owner = await h.user({ fullName: "Ana Ruiz" });
    orgName = `Consultorio Sol ${randomUUID().slice(0, 6)}`;
    orgId = await createOrg(h.db, [{ userId: owner.id, role: "owner" }], { name: orgName, plan: "Clinic" });
  });

  afterAll(async () => {
    await h.close();
  });

  const invite = (email: string, role: "admin" | "clinician" | "staff" = "clinician") =>
    createInvitation({ db: h.db, actor: { userId: owner.id }, orgId, email, role });

  function contextFor(user: { id: string; email: string; mfaRequired?: boolean } | null): RouterContextProvider {
    const context = h.context();
    if (user) context.set(userContext, user);
    return context;
  }

  const load = async (query: string, user: { id: string; email: string; mfaRequired?: boolean } | null = null, prefix = "") => {
    const request = new Request(`${TEST_SITE_URL}${prefix}/accept-invite${query}`);
    const result = await runRoute(() => page.loader({ request, context: contextFor(user), params: {} } as never));
    return { status: result.status, data: result.data as PageData };
  };

  const post = (fields: Record<string, string>, context: RouterContextProvider, prefix = "") =>
    runRoute(() =>
      page.action({
        request: formRequest(`${TEST_SITE_URL}${prefix}/accept-invite?token=${fields.token ?? ""}`, fields),
        context,
        params: {},
      } as never),
    );

  const isMember = async (userId: string) => {
    const { rows } = await sql<{ role: string }>`
      select role from public.org_members where org_id = ${orgId} and user_id = ${userId}`.execute(h.db.kysely);
    return rows[0]?.role ?? null;
  };

  it("shows organisation, inviter and role to an anonymous visitor, with sign-in and sign-up links that come back", async () => {
    const email = `guest-${randomUUID().slice(0, 8)}@example.test`;
    const { token } = await invite(email, "staff");
    const { status, data } = await load(`?token=${token}&utm=x`, null, "/fr");
    expect(status).toBe(200);
    expect(data).toMatchObject({
      view: "invitation",
      viewer: "anonymous",
      invitation: { orgName, inviterName: "Ana Ruiz", inviterEmail: owner.email, email, role: "staff" },
    });
    const back = `/fr/accept-invite?token=${token}`;
    const login = new URL(data.links?.login ?? "", TEST_SITE_URL);
    expect(login.pathname).toBe("/fr/login");
    expect(login.searchParams.get("redirectTo")).toBe(back);
    const signup = new URL(data.links?.signup ?? "", TEST_SITE_URL);
    expect(signup.pathname).toBe("/fr/signup");
    expect(signup.searchParams.get("redirectTo")).toBe(back);
    expect(signup.searchParams.get("email")).toBe(email);
  });

  it("shows the expiry on the inviting organisation's clock, whatever the zone of the server or the visitor", async () => {
    await sql`update public.organizations set timezone = 'America/New_York' where id = ${orgId}`.execute(h.db.kysely);
    try {
      const { id, token } = await invite(`zoned-${randomUUID().slice(0, 8)}@example.test`);
      // 8 March 2031, 23:30 in New York: already the 9th in UTC.
      await sql`update public.invitations set expires_at = '2031-03-09T04:30:00Z' where id = ${id}`.execute(h.db.kysely);
      for (const [prefix, day] of [
        ["", "March 8, 2031"],
        ["/fr", "8 mars 2031"],
        ["/es", "8 de marzo de 2031"],
      ] as const) {
        const { status, data } = await load(`?token=${token}`, null, prefix);
        expect(status).toBe(200);
        expect(data.invitation).toMatchObject({ expiresAt: "2031-03-09T04:30:00.000Z", timeZone: "America/New_York" });
        const html = await renderAt(
          `${prefix}/accept-invite`,
          createElement(page.default, { loaderData: data, actionData: undefined } as never),
        );
        expect(html).toContain(`>${day}</time>`);
      }
    } finally {
      await sql`update public.organizations set timezone = 'UTC' where id = ${orgId}`.execute(h.db.kysely);
    }
  });

  it("gives each unusable token its own error and status: missing 200, malformed/unknown 404, expired/revoked 410, used 409", async () => {
    const expired = await invite(`expired-${randomUUID().slice(0, 8)}@example.test`);
    await sql`update public.invitations set expires_at = now() - interval '1 second' where id = ${expired.id}`.execute(
      h.db.kysely,
    );
    const revoked = await invite(`revoked-${randomUUID().slice(0, 8)}@example.test`);
    await revokeInvitation({ db: h.db, actor: { userId: owner.id }, orgId, invitationId: revoked.id });
    const usedBy = await h.user();
    const used = await invite(usedBy.email);
    expect((await post({ intent: "accept", token: used.token }, contextFor(usedBy))).status).toBe(302);

    expect(await load("")).toMatchObject({ status: 200, data: { view: "missing" } });
    expect(await load("?token=")).toMatchObject({ status: 200, data: { view: "missing" } });
    const invalid = { status: 404, data: { view: "error", code: "invitation_invalid" } };
    for (const bad of [
      "short",
      "x".repeat(300),
      encodeURIComponent("ünïcödé-token-0123456789"),
      "a%20b%20c%20d%20e%20f%20g%20h%20i",
      `${randomUUID()}-unknown`,
    ]) {
      expect({ bad, ...(await load(`?token=${bad}`)) }).toMatchObject({ bad, ...invalid });
    }
    expect(await load(`?token=${expired.token}`)).toMatchObject({
      status: 410,
      data: { view: "error", code: "invitation_expired" },
    });
    expect(await load(`?token=${revoked.token}`)).toMatchObject({
      status: 410,
      data: { view: "error", code: "invitation_revoked" },
    });
    expect(await load(`?token=${used.token}`)).toMatchObject({ status: 409, data: { view: "error", code: "invitation_used" } });
    // The same answers for a signed-in visitor: nothing about the organisation leaks through an error.
    const signedIn = await load(`?token=${revoked.token}`, { id: usedBy.id, email: usedBy.email });
    expect(signedIn.status).toBe(410);
    expect(JSON.stringify(signedIn.data)).not.toContain(orgName);
  });

  it("the invited user (email in another case) accepts: member with the invited role, org cookie set, localized dashboard; replay is 409", async () => {
    const invitee = await h.user({ email: `Invitee-${randomUUID().slice(0, 8)}@Example.test` });
    const { token } = await invite(invitee.email.toUpperCase(), "admin");
    const session = { id: invitee.id, email: invitee.email.toLowerCase() };
    expect(await load(`?token=${token}`, session, "/es")).toMatchObject({ status: 200, data: { viewer: "match" } });

    const res = await post({ intent: "accept", token }, contextFor(session), "/es");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/es/dashboard");
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`^murmur-org=${orgId}; Path=/;`));
    expect(await isMember(invitee.id)).toBe("admin");
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.audit_log
      where org_id = ${orgId} and action = 'invitation.accepted' and actor_id = ${invitee.id}`.execute(h.db.kysely);
    expect(rows[0]?.n).toBe(1);

    const replay = await post({ intent: "accept", token }, contextFor(session), "/es");
    expect(replay).toMatchObject({ status: 409, data: { failure: "invitation_used" } });
    expect(replay.headers.get("set-cookie")).toBeNull();
    expect(await load(`?token=${token}`, session, "/es")).toMatchObject({ status: 409, data: { code: "invitation_used" } });
  });

  it("signed in with another email: the page says so (403), accepting is refused and changes nothing, sign-out comes back here", async () => {
    const { token } = await invite(`someone-${randomUUID().slice(0, 8)}@example.test`);
    const other = await h.user();
    const session = { id: other.id, email: other.email };
    expect(await load(`?token=${token}`, session)).toMatchObject({
      status: 403,
      data: { view: "invitation", viewer: "mismatch" },
    });

    const refused = await post({ intent: "accept", token }, contextFor(session));
    expect(refused).toMatchObject({ status: 403, data: { failure: "invitation_email_mismatch" } });
    expect(await isMember(other.id)).toBeNull();
    expect((await load(`?token=${token}`)).data).toMatchObject({ view: "invitation" });

    const signOut = vi.fn(async () => ({ error: null }));
    const context = contextFor(session);
    context.set(supabaseContext, { supabase: { auth: { signOut } } } as never);
    const out = await post({ intent: "signOut", token }, context, "/fr");
    expect(signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe(`/fr/accept-invite?token=${token}`);
    expect(out.headers.get("set-cookie")).toMatch(/^murmur-org=; Path=\/; Max-Age=0/);
  });

  it("accepting without a session goes to sign-in and back; a session owing its second factor is not signed in yet", async () => {
    const email = `later-${randomUUID().slice(0, 8)}@example.test`;
    const { token } = await invite(email);
    const anonymous = await post({ intent: "accept", token }, contextFor(null));
    expect(anonymous.status).toBe(302);
    const login = new URL(anonymous.headers.get("location") ?? "", TEST_SITE_URL);
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("redirectTo")).toBe(`/accept-invite?token=${token}`);

    const user = await h.user({ email });
    const halfway = await load(`?token=${token}`, { id: user.id, email, mfaRequired: true });
    expect(halfway).toMatchObject({ status: 200, data: { viewer: "anonymous" } });
    expect(new URL(halfway.data.links?.login ?? "", TEST_SITE_URL).searchParams.get("step")).toBe("mfa");
    expect(await isMember(user.id)).toBeNull();
  });

  it("a forged or broken form is a 4xx, never a 500", async () => {
    const user = await h.user();
    const context = contextFor({ id: user.id, email: user.email });
    for (const fields of [
      {},
      { intent: "accept" },
      { intent: "accept", token: "tiny" },
      { intent: "join", token: "x".repeat(40) },
    ]) {
      const res = await post(fields as Record<string, string>, context);
      expect({ fields, status: res.status, data: res.data }).toMatchObject({
        fields,
        status: 404,
        data: { failure: "invitation_invalid" },
      });
    }
    const unknown = await post({ intent: "accept", token: "u".repeat(43) }, context);
    expect(unknown).toMatchObject({ status: 404, data: { failure: "invitation_invalid" } });
  });
});
