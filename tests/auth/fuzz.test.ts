import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import { routes } from "#app/services/auth/api/routes.server.ts";
import { insertChallenge, insertFactor } from "#app/services/auth/mfa/factors.server.ts";
import { createSession } from "#app/services/auth/sessions.server.ts";
import { findUserById } from "#app/services/auth/users.server.ts";
import { createConfirmedUser, createTestAuth, type TestAuth } from "#tests/setup/auth.ts";
import { hostileBody, hostileString, malformedJson, queryString } from "#tests/setup/fuzz.ts";

// Fixed, so a failure reproduces; AUTH_FUZZ_SEED / AUTH_FUZZ_RUNS explore further.
const SEED = Number(process.env.AUTH_FUZZ_SEED ?? 20_260_101);
const RUNS_PER_ENDPOINT = Number(process.env.AUTH_FUZZ_RUNS ?? 200);
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const;
const PASSWORD = "Correct-Horse-9";

let t: TestAuth;

/** A user with a factor and a pending challenge, so generated requests also reach "found" paths. */
interface Fixture {
  email: string;
  userId: string;
  factorId: string;
  challengeId: string;
}
let fixture: Fixture;
let fixtures = 0;

beforeAll(async () => {
  t = await createTestAuth();
  fixture = await newFixture();
});
afterAll(() => t.close());

async function newFixture(): Promise<Fixture> {
  const email = `fuzz-${++fixtures}@example.test`;
  const user = await createConfirmedUser(t, email, PASSWORD);
  const { factorId, challengeId } = await newFactor(user.id);
  return { email, userId: user.id, factorId, challengeId };
}

async function newFactor(userId: string) {
  const factor = await insertFactor(t.db.kysely, { userId, type: "totp", friendlyName: null, secret: "JBSWY3DPEHPK3PXP" });
  const challenge = await insertChallenge(t.db.kysely, { factorId: factor.id, ip: "127.0.0.1" });
  return { factorId: factor.id, challengeId: challenge.id };
}

/**
 * Earlier runs may have deleted the user, its factor or its session (that is allowed): put them
 * back, and reset rate limits, which would otherwise stop most runs at 429.
 */
async function prepareRun(): Promise<Record<string, string | null>> {
  const db = t.db.kysely;
  await sql`delete from auth.rate_limits`.execute(db);
  let user = await findUserById(db, fixture.userId);
  if (!user) {
    fixture = await newFixture();
    user = await findUserById(db, fixture.userId);
  } else if ((await sql`select 1 from auth.mfa_factors where id = ${fixture.factorId}`.execute(db)).rows.length === 0) {
    fixture = { ...fixture, ...(await newFactor(fixture.userId)) };
  }
  if (!user) throw new Error("fixture user missing");
  const session = await createSession(t.auth, user, { method: "password" });
  return {
    none: null,
    anon: `Bearer ${t.auth.keys.anonKey}`,
    service: `Bearer ${t.auth.keys.serviceRoleKey}`,
    user: `Bearer ${session.access_token}`,
    garbage: "Bearer eyJhbGciOiJub25lIn0.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.",
    basic: "Basic dXNlcjpwYXNz",
  };
}

/** Ids are read when a run starts, so they follow fixture replacements. */
const KNOWN = ["userId", "factorId", "challengeId"] as const;
type Known = (typeof KNOWN)[number];
/** Path parameters get the matching fixture id most of the time. */
const likelyId = (name: string): Known => (name === "user_id" ? "userId" : "factorId");
const idValue = (name: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant({ known: likelyId(name) }) },
    { weight: 1, arbitrary: fc.constantFrom(...KNOWN).map((k) => ({ known: k })) },
    { weight: 1, arbitrary: fc.uuid().map((raw) => ({ raw })) },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 500).map((s) => ({ raw: pathSegment(s) })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("%E0%A4%A", "%ZZ", "%00", "..", "%2e%2e", "a%2Fb", "x".repeat(600)).map((raw) => ({ raw })),
    },
  );
type IdValue = { known: Known } | { raw: string };
const resolveId = (id: IdValue) => ("known" in id ? fixture[id.known] : id.raw);

/** The credential the endpoint expects most of the time, any other some of the time. */
const authName = (path: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(path.startsWith("/admin") || path === "/invite" ? "service" : "user") },
    { weight: 1, arbitrary: fc.constantFrom("none", "anon", "garbage", "basic", "user", "service") },
  );

/**
 * Every endpoint ignores keys it does not know, so one body can be plausible for all of them.
 * "@@name" placeholders become the fixture's current values when the request is sent.
 */
const PLAUSIBLE_BODY: Record<string, unknown> = {
  email: "@@email",
  password: PASSWORD,
  factor_type: "totp",
  friendly_name: "Fuzz",
  challenge_id: "@@challengeId",
  code: "123456",
  type: "signup",
  token: "123456",
  data: { locale: "fr" },
  user_metadata: { plan: "x" },
  app_metadata: { tier: "y" },
  email_confirm: true,
  ban_duration: "1h",
  channel: "sms",
};

function withFixtureValues(json: string): string {
  return json.replace(/"@@(email|userId|factorId|challengeId)"/g, (_m, key: keyof Fixture) => JSON.stringify(fixture[key]));
}

interface Outcome {
  status: number;
  text: string;
  contentType: string;
}

async function send(
  method: string,
  path: string,
  query: string,
  body: string | undefined,
  headers: Record<string, string>,
): Promise<Outcome> {
  const hasBody = body !== undefined && method !== "GET" && method !== "HEAD";
  const request = new Request(`http://murmur.test/auth/v1${path}${query ? `?${query}` : ""}`, {
    method,
    headers,
    body: hasBody ? body : undefined,
  });
  const res = await handleAuthRequest(request, t.auth, { ip: "127.0.0.1", userAgent: "fuzz" });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") ?? "" };
}

/** The invariants every answer keeps, whatever was sent. */
function checkOutcome(outcome: Outcome, label: string): void {
  expect(outcome.status, label).toBeLessThan(500);
  expect(outcome.text, label).not.toMatch(/\n\s+at\s/);
  expect(outcome.text, label).not.toMatch(/node_modules|\/app\/services\//);
  if (outcome.status >= 400) {
    const body = JSON.parse(outcome.text) as { code?: unknown };
    expect(typeof body.code, label).toBe("string");
  } else if (outcome.contentType.includes("json") && outcome.text) {
    JSON.parse(outcome.text);
  }
}

describe("auth API fuzz: every endpoint survives hostile input", () => {
  for (const route of routes) {
    it(`${route.method} ${route.path}`, { timeout: 300_000 }, async () => {
      const request = fc.record({
        method: fc.oneof(
          { weight: 4, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
        ),
        params: fc.tuple(...paramNames(route.path).map(idValue)),
        query: fc.oneof(fc.constant(""), queryString),
        body: fc.oneof(
          {
            weight: 6,
            arbitrary: hostileBody(
              PLAUSIBLE_BODY,
              fc.constantFrom(...KNOWN).map((k) => `@@${k}`),
            ),
          },
          { weight: 1, arbitrary: malformedJson },
        ),
        auth: authName(route.path),
        contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", null),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const authorizations = await prepareRun();
          let i = 0;
          const path = route.path.replace(/:[a-z_]+/g, () => resolveId(r.params[i++] as IdValue));
          const headers: Record<string, string> = { apikey: t.auth.keys.anonKey };
          const authorization = authorizations[r.auth];
          if (authorization) headers.authorization = authorization;
          if (r.contentType) headers["content-type"] = r.contentType;
          const body =
            typeof r.body === "string" && r.body !== "" && !isJson(r.body)
              ? r.body
              : withFixtureValues(JSON.stringify(r.body) ?? "");
          const outcome = await send(r.method, path, r.query, body, headers);
          checkOutcome(
            outcome,
            `${r.method} ${path.slice(0, 200)}?${r.query.slice(0, 200)} auth=${r.auth} body=${(body ?? "").slice(0, 300)}`,
          );
        }),
        { seed: SEED, numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
      );
    });
  }

  it("unknown paths and odd methods are clean 404/405s", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileString.filter((s) => s.length < 200).map(pathSegment), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...METHODS),
        async (segments, method) => {
          const outcome = await send(method, `/${segments.join("/")}`, "", undefined, {});
          checkOutcome(outcome, `${method} /${segments.join("/")}`);
        },
      ),
      { seed: SEED, numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
    );
  });
});

function paramNames(path: string): string[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
}

function pathSegment(s: string): string {
  return encodeURIComponent(s.toWellFormed());
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
