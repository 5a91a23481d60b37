import type { AuthKeys } from "./keys.ts";

export const BENCH_PASSWORD = "Bench-Password-42!";

/** A distinct client address per request: with TRUST_PROXY the server believes X-Forwarded-For. */
let addressCounter = 0;
export function nextClientIp(): string {
  const n = ++addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function call(baseUrl: string, path: string, init: { key: string; token?: string; body: unknown }) {
  const res = await fetch(`${baseUrl}/auth/v1${path}`, {
    method: "POST",
    headers: {
      apikey: init.key,
      authorization: `Bearer ${init.token ?? init.key}`,
      "content-type": "application/json",
      "x-forwarded-for": nextClientIp(),
    },
    body: JSON.stringify(init.body),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Confirmed users with a password, created through the admin API (service-role key). */
export async function createUsers(baseUrl: string, keys: AuthKeys, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `bench-${i + 1}@example.test`);
  // A few at a time: each one is a password hash on the server's small thread pool anyway.
  for (let i = 0; i < emails.length; i += 8) {
    await Promise.all(
      emails.slice(i, i + 8).map((email) =>
        call(baseUrl, "/admin/users", {
          key: keys.serviceRoleKey,
          body: { email, password: BENCH_PASSWORD, email_confirm: true },
        }),
      ),
    );
  }
  return emails;
}

export async function signIn(baseUrl: string, keys: AuthKeys, email: string): Promise<{ refresh_token: string }> {
  const body = await call(baseUrl, "/token?grant_type=password", {
    key: keys.anonKey,
    body: { email, password: BENCH_PASSWORD },
  });
  if (typeof body.refresh_token !== "string") throw new Error("sign-in answered without a refresh token");
  return { refresh_token: body.refresh_token };
}

export async function refresh(baseUrl: string, keys: AuthKeys, refreshToken: string): Promise<string> {
  const body = await call(baseUrl, "/token?grant_type=refresh_token", {
    key: keys.anonKey,
    body: { refresh_token: refreshToken },
  });
  if (typeof body.refresh_token !== "string") throw new Error("refresh answered without a refresh token");
  return body.refresh_token;
}
