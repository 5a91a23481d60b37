import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
});
afterAll(() => t.close());

async function signedIn(email: string) {
  const client = t.client();
  const signup = await client.auth.signUp({ email, password: PASSWORD });
  if (!signup.data.session) throw new Error("no session");
  return { client, session: signup.data.session };
}

describe("POST /token?grant_type=refresh_token", () => {
  it("rotates: a new pair for the same session, the old token stored only as the new one's parent", async () => {
    const { client, session } = await signedIn("rotate@example.org");
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    expect(data.session?.access_token).not.toBe(session.access_token);
    expect(events).toContain("TOKEN_REFRESHED");

    const sessionId = (s: string) => JSON.parse(Buffer.from(s.split(".")[1] ?? "", "base64url").toString()).session_id;
    expect(sessionId(data.session?.access_token ?? "")).toBe(sessionId(session.access_token));
    const { rows } = await sql<{ token_hash: string; parent_hash: string | null; revoked: boolean }>`
      select token_hash, parent_hash, revoked from auth.refresh_tokens where session_id = ${sessionId(session.access_token)}
      order by id`.execute(t.db.kysely);
    expect(rows).toEqual([
      { token_hash: sha256(session.refresh_token), parent_hash: null, revoked: true },
      { token_hash: sha256(data.session?.refresh_token ?? ""), parent_hash: sha256(session.refresh_token), revoked: false },
    ]);
    const refreshed = await sql<{ refreshed_at: Date | null }>`
      select refreshed_at from auth.sessions where id = ${sessionId(session.access_token)}`.execute(t.db.kysely);
    expect(refreshed.rows[0]?.refreshed_at).toBeTruthy();
  });

  it("treats reuse of a rotated token past the reuse interval as theft: the whole session is revoked", async () => {
    const { client, session } = await signedIn("reuse@example.org");
    const rotated = await client.auth.refreshSession();
    const current = rotated.data.session;
    if (!current) throw new Error("no refreshed session");
    // Rotated 11 s ago: past AUTH_REFRESH_TOKEN_REUSE_INTERVAL (10 s; refresh-reuse-interval.test.ts covers inside it).
    await sql`update auth.refresh_tokens set updated_at = now() - interval '11 seconds'
              where token_hash = ${sha256(session.refresh_token)}`.execute(t.db.kysely);

    const thief = t.client();
    const replay = await thief.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toMatchObject({
      code: "refresh_token_already_used",
      status: 400,
      message: "Invalid Refresh Token: Already Used",
    });
    // The legitimate holder's newer tokens die with the session.
    const again = await t.client().auth.refreshSession({ refresh_token: current.refresh_token });
    expect(again.error).toMatchObject({ code: "refresh_token_not_found", status: 400 });
    const user = await t.client().auth.getUser(current.access_token);
    expect(user.error?.name).toBe("AuthSessionMissingError");
    const { rows } = await sql`select 1 from auth.audit_log_entries where action = 'refresh_token_reused'`.execute(t.db.kysely);
    expect(rows).toHaveLength(1);
  });

  it("answers an unknown token with refresh_token_not_found", async () => {
    const { error } = await t.client().auth.refreshSession({ refresh_token: "not-a-real-token-at-all" });
    expect(error).toMatchObject({
      code: "refresh_token_not_found",
      status: 400,
      message: "Invalid Refresh Token: Refresh Token Not Found",
    });
  });

  it("answers refresh_token_not_found once the user is deleted", async () => {
    const { session } = await signedIn("deleted@example.org");
    await sql`delete from auth.users where email = 'deleted@example.org'`.execute(t.db.kysely);
    const { error } = await t.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(error?.code).toBe("refresh_token_not_found");
  });

  it("refuses a banned user and an expired session", async () => {
    const banned = await signedIn("banned-refresh@example.org");
    await sql`update auth.users set banned_until = now() + interval '1 hour' where email = 'banned-refresh@example.org'`.execute(
      t.db.kysely,
    );
    const b = await t.client().auth.refreshSession({ refresh_token: banned.session.refresh_token });
    expect(b.error).toMatchObject({ code: "user_banned", status: 400 });

    const expired = await signedIn("expired-session@example.org");
    await sql`update auth.sessions set not_after = now() - interval '1 minute'
              where user_id = (select id from auth.users where email = 'expired-session@example.org')`.execute(t.db.kysely);
    const e = await t.client().auth.refreshSession({ refresh_token: expired.session.refresh_token });
    expect(e.error).toMatchObject({ code: "session_expired", status: 400 });
  });

  it("lets two concurrent uses of the same token both through, with the same new token", async () => {
    const { session } = await signedIn("race@example.org");
    const [a, b] = await Promise.all([
      t.client().auth.refreshSession({ refresh_token: session.refresh_token }),
      t.client().auth.refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect([a.error, b.error]).toEqual([null, null]);
    expect(a.data.session?.refresh_token).toBe(b.data.session?.refresh_token);
  });
});
