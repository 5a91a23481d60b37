import { randomUUID } from "node:crypto";
import { generatedKeys } from "#tests/e2e/server-process.ts";

// A signed-up user with an organisation on a real server, and a small client for its JSON API:
// the server tests drive the app only through what a browser or the recorder would send.

export interface ApiClient {
  token: string;
  orgId: string;
  /** Another server on the same data (a restart, a restored copy): same user, same organisation. */
  at(site: string): ApiClient;
  call(
    method: string,
    url: string,
    init?: { json?: unknown; body?: Uint8Array; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
}

// biome-ignore lint/suspicious/noExplicitAny: API answers are read loosely and asserted on.
export type ApiAnswer = { status: number; body: any };

function client(site: string, token: string, orgId: string): ApiClient {
  return {
    token,
    orgId,
    at: (other) => client(other, token, orgId),
    async call(method, url, init = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...init.headers };
      if (orgId) headers["x-org-id"] = orgId;
      if (init.json !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${site}${url}`, {
        method,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : (init.body as BodyInit | undefined),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: kept as text for the assertion message
      }
      return { status: res.status, body };
    },
  };
}

/** A confirmed user (admin API with the service key the server printed), signed in, owning a practice on an unlimited plan. */
export async function signUpWithPractice(site: string, serverOutput: string, name: string): Promise<ApiClient> {
  const keys = generatedKeys(serverOutput);
  const email = `${name.toLowerCase().replaceAll(" ", "-")}-${randomUUID()}@example.test`;
  const password = "Server-Tests-2026!";
  const created = await fetch(`${site}/auth/v1/admin/users`, {
    method: "POST",
    headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, "content-type": "application/json" },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  if (created.status !== 200) throw new Error(`admin create user: ${created.status} ${await created.text()}`);
  const signIn = await fetch(`${site}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: keys.anonKey, "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const anonymous = client(site, token, "");
  const org = await anonymous.call("POST", "/api/orgs", { json: { name } });
  if (org.status !== 201) throw new Error(`create org: ${org.status} ${JSON.stringify(org.body)}`);
  const api = client(site, token, org.body.id);
  // The trial's monthly visit allowance must not end a load test early.
  const plan = await api.call("PATCH", `/api/orgs/${org.body.id}`, { json: { plan: "Clinic" } });
  if (plan.status !== 200) throw new Error(`set plan: ${plan.status} ${JSON.stringify(plan.body)}`);
  return api;
}
