// Issue 17: property-based fuzzing of every JSON API route listed in app/routes.ts — random
// methods, bodies, query strings, ids and x-org-id headers, as each role of one organisation, as
// a member of another organisation only, and anonymously. Whatever arrives: never a 5xx, and
// never a byte of the other organisation's data in a body. Routes added later are picked up from
// app/routes.ts without touching this file.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as patientsRoute from "#app/routes/resources/api-patients.ts";
import * as transcriptRoute from "#app/routes/resources/api-visit-transcript.ts";
import * as visitsRoute from "#app/routes/resources/api-visits.ts";
import { type ApiHarness, type ApiUser, openApiHarness, orgWithEveryRole, type RouteModule } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { hostileString, hostileValue, malformedJson, queryString } from "#tests/setup/fuzz.ts";
import { createOrg } from "#tests/setup/orgs.ts";

const RUNS = Number(process.env.API_FUZZ_RUNS ?? 40);
const SEED = 20_261_125;
// Streams (server-sent events) never end; their first bytes are enough to check.
const READ_LIMIT_MS = 300;
// Text only organisation B holds: seen in any answer to someone outside B, it is a leak.
const B_MARKER = "Zebulon-Quartzfield";
const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"];
const JSON_TYPE = "application/json";

/** Every `api/...` resource route in app/routes.ts: its path pattern and its module. */
function apiRoutes(): { pattern: string; file: string }[] {
  const source = fs.readFileSync("app/routes.ts", "utf8");
  return [...source.matchAll(/route\("(api\/[^"]+)",\s*"([^"]+)"\)/g)].map((m) => ({
    pattern: m[1] as string,
    file: m[2] as string,
  }));
}

const BODY_KEYS = [
  "display_name",
  "date_of_birth",
  "sex",
  "external_id",
  "notes",
  "patient_id",
  "patientId",
  "title",
  "language",
  "consent",
  "clinician_id",
  "chunks",
  "bytes",
  "duration_ms",
  "chunk_sha256",
  "mime_type",
  "segments",
  "text",
  "query",
  "filters",
  "scope",
  "visit_date",
  "template_id",
  "sections",
  "rating",
  "comment",
  "name",
  "role",
  "email",
  "token",
  "status",
  "version",
  "changes",
  "reason",
  "lines",
  "code",
  "system",
  "code_systems",
  "exam_date",
  "copy_from",
  "plan",
  "format",
  "body",
  "content",
  "key",
  "id",
  "org_id",
  "limit",
  "debug",
];

/** Percent-encoding that survives lone surrogates (sent as the invalid UTF-8 a broken client would send). */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

async function readSome(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + READ_LIMIT_MS;
  try {
    while (Date.now() < deadline) {
      const next = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now()))),
      ]);
      if (!next || next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

describeEachDatabase("every JSON API route under random input", (target) => {
  let h: ApiHarness;
  let callers: Record<string, ApiUser | null>;
  let orgA: string;
  let orgB: string;
  let ids: string[];

  beforeAll(async () => {
    h = await openApiHarness(target);
    const a = await orgWithEveryRole(h, (db, members) => createOrg(db, members, { name: "Clinique A", plan: "Clinic" }));
    orgA = a.orgId;
    const outsider = await h.user();
    orgB = await createOrg(h.db, [{ userId: outsider.id, role: "owner" }], { name: `Cabinet ${B_MARKER}` });
    callers = { ...a.users, outsider, anonymous: null };
    // Data in both organisations, so ids of real rows (ours and theirs) reach every route.
    const make = async (user: ApiUser, org: string, name: string) => {
      const call = async (mod: RouteModule, path: string, body: unknown, params = {}) => {
        const request = new Request(`${TEST_SITE_URL}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${user.token}`, "x-org-id": org, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const res = await responseOf(() =>
          (mod.action as (a: never) => unknown)({ request, params, context: h.context() } as never),
        );
        return (await res.json()) as { id: string };
      };
      const patient = await call(patientsRoute, "/api/patients", { display_name: name });
      const visit = await call(visitsRoute, "/api/visits", {
        patient_id: patient.id,
        language: "en",
        consent: true,
        title: name,
      });
      await call(
        transcriptRoute,
        `/api/visits/${visit.id}/transcript`,
        { text: `${name} takes lisinopril 10 mg.` },
        { id: visit.id },
      );
      return [patient.id, visit.id];
    };
    ids = [...(await make(a.users.clinician, orgA, "Ana Ruiz")), ...(await make(outsider, orgB, B_MARKER)), orgA, orgB];
  }, 240_000);

  afterAll(async () => {
    await h?.close();
  });

  /** The methods a route answers with something else than 405, asked once as A's owner. */
  async function allowedMethods(mod: RouteModule, pattern: string, paramNames: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const method of METHODS) {
      const handler = method === "GET" ? mod.loader : mod.action;
      if (!handler) continue;
      const params = Object.fromEntries(paramNames.map((name) => [name, ids[1] ?? ""]));
      const request = new Request(`${TEST_SITE_URL}/${pattern}`, {
        method,
        headers: { authorization: `Bearer ${callers.owner?.token}`, "x-org-id": orgA, "content-type": "application/json" },
        body: method === "GET" ? undefined : "{}",
      });
      const response = await responseOf(() =>
        (handler as (a: never) => unknown)({ request, params, context: createTestContext({ db: h.db, auth: h.auth }) } as never),
      ).catch(() => null);
      await response?.body?.cancel().catch(() => undefined);
      if (response && response.status !== 405) out.push(method);
    }
    return out;
  }

  it("answers below 500 and never shows another organisation's data", async () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    const tally = new Map<number, number>();
    for (const route of routes) {
      const mod = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as RouteModule;
      const paramNames = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
      const idValue = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ids) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom("0", "-1", "99999999", "not-a-uuid", "%00", "..") },
        { weight: 1, arbitrary: hostileString.filter((s) => s.length > 0 && s.length < 200) },
      );
      const plausible = fc.dictionary(fc.constantFrom(...BODY_KEYS), fc.oneof(hostileValue, idValue), { maxKeys: 5 });
      // Mostly the methods the route answers (a 405 tells little), sometimes any.
      const allowed = await allowedMethods(mod, route.pattern, paramNames);
      const calls = fc.sample(
        fc.record({
          method: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom(...(allowed.length ? allowed : METHODS)) },
            { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
          ),
          caller: fc.constantFrom(...Object.keys(callers)),
          params: fc.tuple(...paramNames.map(() => idValue)),
          org: fc.oneof(fc.constantFrom(orgA, orgB, orgA, "not-an-org"), fc.constant(undefined)),
          query: fc.oneof(
            queryString,
            idValue.map((id) => `org_id=${encode(id)}&patient_id=${encode(id)}`),
          ),
          body: fc.oneof(
            { weight: 4, arbitrary: plausible.map((b) => JSON.stringify(b)) },
            { weight: 1, arbitrary: malformedJson },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
          ),
          contentType: fc.constantFrom("application/json", "application/json", "text/plain", "multipart/form-data; boundary=x"),
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // Edges drawn every run, not left to chance: the other tenant's ids and organisation, an
      // organisation in the query that is not printable ASCII, broken JSON.
      const edges = allowed.flatMap((method) =>
        (["owner", "staff"] as const).flatMap((caller) => [
          {
            method,
            caller,
            params: paramNames.map(() => ids[3] ?? ""),
            org: orgA,
            query: "",
            body: "{}",
            contentType: JSON_TYPE,
          },
          { method, caller, params: paramNames.map(() => ids[1] ?? ""), org: orgB, query: "", body: "{", contentType: JSON_TYPE },
          {
            method,
            caller,
            params: paramNames.map(() => ids[1] ?? ""),
            org: undefined,
            query: "org_id=%ED%A0%80",
            body: "{}",
            contentType: JSON_TYPE,
          },
        ]),
      );
      for (const call of [...edges, ...calls]) {
        const handler = call.method === "GET" ? mod.loader : mod.action;
        if (!handler) continue;
        const params = Object.fromEntries(paramNames.map((name, i) => [name, String(call.params[i])]));
        const path = `/${route.pattern.replace(/:(\w+)/g, (_m, name: string) => encode(params[name] ?? ""))}`;
        const user = callers[call.caller];
        const headers = new Headers({ "content-type": call.contentType });
        if (user) headers.set("authorization", `Bearer ${user.token}`);
        if (call.org) headers.set("x-org-id", call.org);
        const request = new Request(`${TEST_SITE_URL}${path}?${call.query}`, {
          method: call.method,
          headers,
          body: call.method === "GET" ? undefined : call.body,
        });
        const label = `${call.method} ${path} as ${call.caller} (org ${call.org === orgA ? "A" : call.org === orgB ? "B" : call.org})`;
        let status: number;
        let text: string;
        try {
          const response = await responseOf(() =>
            (handler as (a: never) => unknown)({
              request,
              params,
              context: createTestContext({ db: h.db, auth: h.auth }),
            } as never),
          );
          status = response.status;
          text = await readSome(response);
        } catch (error) {
          failures.push(`${label}: threw ${(error as Error).message}`);
          continue;
        }
        tally.set(status, (tally.get(status) ?? 0) + 1);
        if (status >= 500) failures.push(`${label}: ${status} ${text.slice(0, 200)}`);
        if (call.caller !== "outsider" && text.includes(B_MARKER)) failures.push(`${label}: another organisation's data`);
      }
    }
    expect(failures).toEqual([]);
    // The calls must get past authentication into the routes, or the property says nothing.
    const total = [...tally.values()].reduce((a, b) => a + b, 0);
    const ok = [...tally].filter(([status]) => status < 300).reduce((a, [, n]) => a + n, 0);
    if (process.env.API_FUZZ_TALLY) console.log([...tally].sort((x, y) => x[0] - y[0]));
    expect(ok / total).toBeGreaterThan(0.04);
  }, 600_000);
});
