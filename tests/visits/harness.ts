import { createHash, randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { OrgRole } from "#app/db/schema.ts";
import { createLoadContext } from "#app/runtime/load-context.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { createLocalBlobStore } from "#app/services/storage/local-disk.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { type ApiHarness, type ApiUser, openApiHarness, type RouteModule } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import type { DatabaseTarget } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";

// The visits API over a real database (PGlite or PostgreSQL), real bearer tokens and a blob
// store in a temporary MURMUR_DATA_DIR, so tests can look at the stored bytes.

export type Who = OrgRole | "outsider" | "anonymous";

export interface VisitHarness extends ApiHarness {
  dataDir: string;
  store: BlobStore;
  /** Org A with one user per role; org B whose only member is the outsider. */
  a: { orgId: string; users: Record<OrgRole, ApiUser> };
  b: { orgId: string; owner: ApiUser };
  context(): RouterContextProvider;
}

export async function openVisitHarness(target: DatabaseTarget): Promise<VisitHarness> {
  const api = await openApiHarness(target);
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-visits-"));
  const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", MURMUR_DATA_DIR: dataDir });
  const runtime = {
    env,
    db: api.db,
    logger: createLogger("silent"),
    auth: api.auth,
    close: async () => {},
  } satisfies Runtime;
  const users = { owner: await api.user(), admin: await api.user(), clinician: await api.user(), staff: await api.user() };
  const orgA = await createOrg(
    api.db,
    (Object.keys(users) as OrgRole[]).map((role) => ({ userId: users[role].id, role })),
  );
  // On the unlimited plan, so the trial's monthly visit allowance never interferes; the
  // allowance tests set the plan themselves.
  await sql`update public.organizations set plan = 'Clinic' where id = ${orgA}`.execute(api.db.kysely);
  const outsider = await api.user();
  const orgB = await createOrg(api.db, [{ userId: outsider.id, role: "owner" }]);
  return {
    ...api,
    dataDir,
    store: createLocalBlobStore(path.join(dataDir, "blobs")),
    a: { orgId: orgA, users },
    b: { orgId: orgB, owner: outsider },
    context: () => createLoadContext(runtime, { requestId: "test", nonce: "test-nonce", clientIp: "127.0.0.1" }),
    async close() {
      await api.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Call {
  method: string;
  path: string;
  params?: Record<string, string>;
  /** Who calls: a role of org A (with x-org-id A), the outsider (x-org-id B), anonymous. */
  as?: Who;
  /** Overrides the x-org-id header (null: none). */
  orgId?: string | null;
  /** A JSON value, or a raw string sent as is with the JSON content type. */
  json?: unknown;
  /** A raw body: bytes or a stream. */
  body?: BodyInit | Uint8Array;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them.
  body: any;
}

/** Calls a route module as React Router would: GET/HEAD → loader, anything else → action. */
export async function call(h: VisitHarness, mod: RouteModule, c: Call): Promise<CallResult> {
  const headers = new Headers(c.headers);
  const who = c.as ?? "owner";
  if (who !== "anonymous") {
    const user = who === "outsider" ? h.b.owner : h.a.users[who];
    headers.set("authorization", `Bearer ${user.token}`);
  }
  const orgId = c.orgId === undefined ? (who === "outsider" ? h.b.orgId : h.a.orgId) : c.orgId;
  if (orgId) headers.set("x-org-id", orgId);
  let body = c.body as BodyInit | undefined;
  if (c.json !== undefined) {
    body = typeof c.json === "string" ? c.json : JSON.stringify(c.json);
    headers.set("content-type", "application/json");
  }
  const init: RequestInit & { duplex?: string } = { method: c.method, headers, body };
  if (body instanceof ReadableStream) init.duplex = "half";
  const request = new Request(`${TEST_SITE_URL}${c.path}`, init);
  const handler = c.method === "GET" || c.method === "HEAD" ? mod.loader : mod.action;
  if (!handler) throw new Error(`no handler for ${c.method} ${c.path}`);
  const response = await responseOf(() => handler({ request, context: h.context(), params: c.params ?? {} } as never));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A patient of org A, created through the owner connection (setup only). */
export async function seedPatient(h: VisitHarness, orgId = h.a.orgId, name = `Patient ${randomUUID().slice(0, 6)}`) {
  const { rows } = await sql<{ id: string }>`
    insert into public.patients (org_id, display_name) values (${orgId}, ${name}) returning id`.execute(h.db.kysely);
  const id = rows[0]?.id;
  if (!id) throw new Error("patient not created");
  return id;
}

/** A consented draft visit of org A's patient, created through the owner connection (setup only). */
export async function seedVisit(
  h: VisitHarness,
  options: { orgId?: string; patientId?: string; language?: "en" | "fr" | "es"; status?: string } = {},
) {
  const orgId = options.orgId ?? h.a.orgId;
  const patientId = options.patientId ?? (await seedPatient(h, orgId));
  const { rows } = await sql<{ id: string }>`
    insert into public.visits (org_id, patient_id, language, consent_at, status)
    values (${orgId}, ${patientId}, ${options.language ?? "en"}, now(), ${options.status ?? "draft"})
    returning id`.execute(h.db.kysely);
  const id = rows[0]?.id;
  if (!id) throw new Error("visit not created");
  return id;
}

/** Deterministic pseudo-random bytes, so each chunk differs. */
export function bytesOf(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < length; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A WebM-looking first chunk (EBML magic) followed by data, as MediaRecorder's first slice starts. */
export function webmChunks(count: number, size = 4096): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const b = bytesOf(size, i + 1);
    if (i === 0) b.set([0x1a, 0x45, 0xdf, 0xa3]);
    return b;
  });
}

export function concat(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

/** A signed-in page's context as the app layout's middleware leaves it: `user` working in `orgId` with `role`. */
export function pageContextIn(h: VisitHarness, orgId: string, user: { id: string; email: string }, role: MemberOrg["role"]) {
  const context = h.context();
  const org = {
    id: orgId,
    name: "x",
    slug: "x",
    kind: "practice",
    plan: "Clinic",
    pms: "none",
    timezone: "UTC",
    region: "us",
    trial_ends_at: null,
    role,
  } as const;
  context.set(orgContext, { user, org, role, orgs: [org], switchedFrom: null });
  return context;
}
