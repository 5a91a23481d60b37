import type { Session, SupabaseClient } from "@supabase/supabase-js";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
});
afterAll(() => t.close());

interface Device {
  client: SupabaseClient;
  session: Session;
}

/** Three devices signed in as the same new user. */
async function threeDevices(email: string): Promise<[Device, Device, Device]> {
  await t.client().auth.signUp({ email, password: PASSWORD });
  const device = async (): Promise<Device> => {
    const client = t.client();
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    if (error || !data.session) throw error ?? new Error("no session");
    return { client, session: data.session };
  };
  return [await device(), await device(), await device()];
}

/** Whether a session still works, judged by a fresh client holding its tokens. */
async function alive({ session }: Device) {
  const user = await t.client().auth.getUser(session.access_token);
  return user.error === null;
}

describe("POST /logout", () => {
  it("scope local ends only this device's session", async () => {
    const [a, b, c] = await threeDevices("local@example.org");
    const { error } = await a.client.auth.signOut({ scope: "local" });
    expect(error).toBeNull();
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, true, true]);
    const refresh = await t.client().auth.refreshSession({ refresh_token: a.session.refresh_token });
    expect(refresh.error?.code).toBe("refresh_token_not_found");
  });

  it("scope others ends every other session and keeps this one", async () => {
    const [a, b, c] = await threeDevices("others@example.org");
    await b.client.auth.signOut({ scope: "others" });
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, true, false]);
  });

  it("scope global (the default) ends them all and emits SIGNED_OUT", async () => {
    const [a, b, c] = await threeDevices("global@example.org");
    const events: string[] = [];
    c.client.auth.onAuthStateChange((event) => void events.push(event));
    const { error } = await c.client.auth.signOut();
    expect(error).toBeNull();
    expect(events).toContain("SIGNED_OUT");
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, false, false]);
    const { rows } = await sql`select 1 from auth.audit_log_entries where action = 'logout'`.execute(t.db.kysely);
    expect(rows.length).toBeGreaterThan(0);
  });

  it("an access token of an ended session gets session_not_found (supabase-js: AuthSessionMissingError)", async () => {
    const [a] = await threeDevices("gone@example.org");
    await a.client.auth.signOut({ scope: "local" });
    const res = await t.fetch("http://murmur.test/auth/v1/user", {
      headers: { Authorization: `Bearer ${a.session.access_token}`, apikey: t.auth.keys.anonKey },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "session_not_found" });
    expect((await t.client().auth.getUser(a.session.access_token)).error?.name).toBe("AuthSessionMissingError");
  });

  it("needs a valid bearer token and a known scope", async () => {
    const none = await t.fetch("http://murmur.test/auth/v1/logout", { method: "POST" });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: "no_authorization" });
    const bad = await t.fetch("http://murmur.test/auth/v1/logout", {
      method: "POST",
      headers: { Authorization: "Bearer x.y.z" },
    });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toMatchObject({ code: "bad_jwt" });
    const [a] = await threeDevices("scope@example.org");
    const odd = await t.fetch("http://murmur.test/auth/v1/logout?scope=everyone", {
      method: "POST",
      headers: { Authorization: `Bearer ${a.session.access_token}` },
    });
    expect(odd.status).toBe(400);
    expect(await odd.json()).toMatchObject({ code: "validation_failed" });
    expect(await alive(a)).toBe(true);
  });
});
