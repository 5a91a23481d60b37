import { randomInt, randomUUID } from "node:crypto";
import { createClient, type Session, type SupabaseClient } from "@supabase/supabase-js";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import { type AuthRuntime, startAuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

// GoTrue's refresh-token reuse interval (docs/auth.md "Differences"): a token rotated less than
// AUTH_REFRESH_TOKEN_REUSE_INTERVAL seconds ago answers with the session's current tokens instead
// of revoking the session, so two refreshes racing (the server rendering a page while the browser
// refreshes, two tabs) never sign the user out. Runs on server PostgreSQL too (real row locks),
// where every name and client IP is unique because the database is shared.

const PASSWORD = "Correct-Horse-7";
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString());

interface Harness {
  auth: AuthRuntime;
  db: Database;
  client(): SupabaseClient;
}

function harness(db: Database, env: Record<string, string> = {}): Promise<Harness> {
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  return startAuthRuntime(
    parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SITE_URL: TEST_SITE_URL, AUTH_EMAIL_AUTOCONFIRM: "true", ...env }),
    db,
    createLogger("silent"),
  ).then((auth) => ({
    auth,
    db,
    client() {
      const store = new Map<string, string>();
      return createClient(TEST_SITE_URL, auth.keys.anonKey, {
        auth: {
          persistSession: true,
          autoRefreshToken: false,
          detectSessionInUrl: false,
          storage: {
            getItem: (k: string) => store.get(k) ?? null,
            setItem: (k: string, v: string) => void store.set(k, v),
            removeItem: (k: string) => void store.delete(k),
          },
        },
        global: { fetch: async (input, init) => handleAuthRequest(new Request(input, init), auth, { ip, userAgent: "vitest" }) },
      });
    },
  }));
}

async function signedIn(h: Harness, label: string): Promise<{ client: SupabaseClient; session: Session }> {
  const client = h.client();
  const { data, error } = await client.auth.signUp({ email: `${label}-${randomUUID()}@example.org`, password: PASSWORD });
  if (error || !data.session) throw error ?? new Error("no session");
  return { client, session: data.session };
}

/** A second party holding the same session, as the browser does beside the server-side client. */
async function sameSessionElsewhere(h: Harness, session: Session): Promise<SupabaseClient> {
  const other = h.client();
  const { error } = await other.auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token });
  if (error) throw error;
  return other;
}

/** Moves a rotated token's rotation `seconds` into the past: the clock the reuse interval reads. */
async function rotatedSecondsAgo(h: Harness, sessionId: string, seconds: number): Promise<void> {
  await sql`update auth.refresh_tokens set updated_at = now() - make_interval(secs => ${seconds})
            where session_id = ${sessionId} and revoked`.execute(h.db.kysely);
}

async function reuseEvents(h: Harness, sessionId: string): Promise<number> {
  const { rows } = await sql`select 1 from auth.audit_log_entries
                             where action = 'refresh_token_reused' and payload->>'session_id' = ${sessionId}`.execute(
    h.db.kysely,
  );
  return rows.length;
}

describeEachDatabase("refresh-token reuse interval", (target) => {
  let db: Database;
  let h: Harness;
  beforeAll(async () => {
    db = await target.open();
    h = await harness(db);
  });
  afterAll(() => db.close());

  it("answers a just-rotated token with the session's current pair, and the first client stays signed in", async () => {
    const { client, session } = await signedIn(h, "lost-response");
    const rotated = await client.auth.refreshSession();
    const current = rotated.data.session;
    if (!current) throw rotated.error ?? new Error("no refreshed session");

    const replay = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toBeNull();
    expect(replay.data.session?.refresh_token).toBe(current.refresh_token);
    expect(replay.data.session?.access_token).toBeTruthy();
    expect(claimsOf(replay.data.session?.access_token ?? "").session_id).toBe(claimsOf(current.access_token).session_id);

    // Before the fix the replay revoked the session and this failed with "Auth session missing!".
    const update = await client.auth.updateUser({ data: { still: "signed in" } });
    expect(update.error).toBeNull();
    const again = await client.auth.refreshSession();
    expect(again.error).toBeNull();
    expect(await reuseEvents(h, claimsOf(current.access_token).session_id)).toBe(0);
  });

  it("lets two concurrent refreshes of one token both succeed with the same tokens, and both keep working", async () => {
    const { client: server, session } = await signedIn(h, "concurrent");
    const browser = await sameSessionElsewhere(h, session);
    const [a, b] = await Promise.all([server.auth.refreshSession(), browser.auth.refreshSession()]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    expect(a.data.session?.refresh_token).toBe(b.data.session?.refresh_token);
    expect(a.data.session?.refresh_token).not.toBe(session.refresh_token);

    for (const [who, client] of [
      ["server", server],
      ["browser", browser],
    ] as const) {
      const { data, error } = await client.auth.updateUser({ data: { last_seen_by: who } });
      expect(error).toBeNull();
      expect(data.user?.user_metadata.last_seen_by).toBe(who);
    }
    // They hold the same token again, so the next round behaves the same way, in either order.
    const next = await Promise.all([browser.auth.refreshSession(), server.auth.refreshSession()]);
    expect(next.map((r) => r.error)).toEqual([null, null]);
    expect((await server.auth.getUser()).error).toBeNull();
    expect((await browser.auth.getUser()).error).toBeNull();
    const sessionId = claimsOf(session.access_token).session_id;
    const { rows } = await sql`select 1 from auth.sessions where id = ${sessionId}`.execute(h.db.kysely);
    expect(rows).toHaveLength(1);
    expect(await reuseEvents(h, sessionId)).toBe(0);
  });

  it("finds the latest token of the family when the presented one is several rotations behind", async () => {
    const { client, session } = await signedIn(h, "behind");
    await client.auth.refreshSession();
    const latest = (await client.auth.refreshSession()).data.session;
    if (!latest) throw new Error("no refreshed session");
    const replay = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toBeNull();
    expect(replay.data.session?.refresh_token).toBe(latest.refresh_token);
  });

  it("still treats reuse after the interval as theft: the whole family is revoked", async () => {
    const { client, session } = await signedIn(h, "past-interval");
    const current = (await client.auth.refreshSession()).data.session;
    if (!current) throw new Error("no refreshed session");
    const sessionId = claimsOf(session.access_token).session_id;
    await rotatedSecondsAgo(h, sessionId, 11);

    const replay = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toMatchObject({
      code: "refresh_token_already_used",
      status: 400,
      message: "Invalid Refresh Token: Already Used",
    });
    const newer = await h.client().auth.refreshSession({ refresh_token: current.refresh_token });
    expect(newer.error).toMatchObject({ code: "refresh_token_not_found", status: 400 });
    const update = await client.auth.updateUser({ data: { x: 1 } });
    expect(update.error?.message).toBe("Auth session missing!");
    const { rows } = await sql`select 1 from auth.refresh_tokens where session_id = ${sessionId}`.execute(h.db.kysely);
    expect(rows).toHaveLength(0);
    expect(await reuseEvents(h, sessionId)).toBe(1);
  });

  it("measures the interval from the presented token's rotation, just inside and just past", async () => {
    const inside = await signedIn(h, "inside");
    await inside.client.auth.refreshSession();
    await rotatedSecondsAgo(h, claimsOf(inside.session.access_token).session_id, 9);
    expect((await h.client().auth.refreshSession({ refresh_token: inside.session.refresh_token })).error).toBeNull();

    const past = await signedIn(h, "past");
    await past.client.auth.refreshSession();
    await rotatedSecondsAgo(h, claimsOf(past.session.access_token).session_id, 10.5);
    const late = await h.client().auth.refreshSession({ refresh_token: past.session.refresh_token });
    expect(late.error?.code).toBe("refresh_token_already_used");
  });

  it("adds a token to the session when the current one cannot be derived (issued before this change, or by MFA)", async () => {
    const { client, session } = await signedIn(h, "underived");
    const sessionId = claimsOf(session.access_token).session_id;
    // What an MFA step-up does: the session's token is retired and a random one takes its place.
    await sql`update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = ${sessionId}`.execute(
      h.db.kysely,
    );
    await sql`insert into auth.refresh_tokens (token_hash, session_id, user_id, parent_hash)
              select md5(random()::text), session_id, user_id, token_hash from auth.refresh_tokens
              where session_id = ${sessionId}`.execute(h.db.kysely);
    const replay = await client.auth.refreshSession();
    expect(replay.error).toBeNull();
    expect(replay.data.session?.refresh_token).not.toBe(session.refresh_token);
    expect((await client.auth.refreshSession()).error).toBeNull();
  });
});

describeEachDatabase("refresh-token reuse interval disabled (AUTH_REFRESH_TOKEN_REUSE_INTERVAL=0)", (target) => {
  let db: Database;
  let h: Harness;
  beforeAll(async () => {
    db = await target.open();
    h = await harness(db, { AUTH_REFRESH_TOKEN_REUSE_INTERVAL: "0" });
  });
  afterAll(() => db.close());

  it("revokes the session on any reuse, however recent", async () => {
    const { client, session } = await signedIn(h, "no-grace");
    await client.auth.refreshSession();
    const replay = await h.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error?.code).toBe("refresh_token_already_used");
    expect((await client.auth.updateUser({ data: { x: 1 } })).error?.message).toBe("Auth session missing!");
  });

  it("lets only one of two concurrent uses of the same token through", async () => {
    const { session } = await signedIn(h, "no-grace-race");
    const [a, b] = await Promise.all([
      h.client().auth.refreshSession({ refresh_token: session.refresh_token }),
      h.client().auth.refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect([a, b].filter((r) => r.error === null).length).toBeLessThanOrEqual(1);
    expect([a, b].some((r) => r.error?.code === "refresh_token_already_used")).toBe(true);
  });
});
