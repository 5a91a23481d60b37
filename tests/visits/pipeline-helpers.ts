import type { PgBoss } from "pg-boss";
import { expect } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import * as audioRoute from "#app/routes/resources/api-visit-audio.ts";
import { registerBoss, unregisterBoss } from "#app/services/jobs/registry.server.ts";
import type { TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { wavHeader } from "#app/services/speech/wav.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import { call, seedVisit, type VisitHarness, type Who } from "./harness.ts";

// Shared by the issue 5 "Pipeline" suites (events, playback, re-run and edits).

/** A real 16 kHz mono PCM WAV of `samples` samples of a tone. */
export function wavFile(samples: number): Uint8Array {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2);
  return Uint8Array.from(Buffer.concat([wavHeader(data.length, 16000), data]));
}

/** A visit of org A whose audio (a WAV file) is uploaded: status `uploaded`. */
export async function uploadedVisit(h: VisitHarness, wav = wavFile(8000)): Promise<string> {
  const id = await seedVisit(h);
  const res = await call(h, audioRoute, {
    method: "POST",
    path: `/api/visits/${id}/audio`,
    params: { id },
    body: wav,
    headers: { "content-type": "audio/wav" },
  });
  expect(res.status).toBe(200);
  return id;
}

/** Headers of a caller as harness.call sets them: a role of org A, or the outsider in org B. */
export function headersOf(h: VisitHarness, who: Who, orgId?: string | null): Headers {
  const headers = new Headers();
  if (who !== "anonymous") {
    const user = who === "outsider" ? h.b.owner : h.a.users[who as OrgRole];
    headers.set("authorization", `Bearer ${user.token}`);
  }
  const org = orgId === undefined ? (who === "outsider" ? h.b.orgId : h.a.orgId) : orgId;
  if (org) headers.set("x-org-id", org);
  return headers;
}

type Loader = (args: never) => unknown;

/** A GET to a resource route's loader, answered as the raw Response (streams left unread). */
export function getRaw(
  h: VisitHarness,
  loader: Loader,
  options: {
    path: string;
    params: Record<string, string>;
    as?: Who;
    orgId?: string | null;
    headers?: Record<string, string>;
    signal?: AbortSignal;
    method?: string;
  },
): Promise<Response> {
  const headers = headersOf(h, options.as ?? "owner", options.orgId);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const request = new Request(`${TEST_SITE_URL}${options.path}`, {
    method: options.method ?? "GET",
    headers,
    signal: options.signal,
  });
  return responseOf(() => loader({ request, context: h.context(), params: options.params } as never));
}

/** A stand-in engine: each transcript names its call number; `onCall` may report progress. */
export function fakeEngine(onCall?: (call: number, options: Parameters<TranscribePort>[2]) => Promise<void>) {
  const calls: string[] = [];
  const transcribe: TranscribePort = async (path, _language, options) => {
    calls.push(path);
    await onCall?.(calls.length, options);
    return {
      text: `take ${calls.length}`,
      segments: [
        { start: 0, end: 1.5, text: "take" },
        { start: 1.5, end: 3, text: String(calls.length) },
      ],
      engine: "fake",
      model: "fake-1",
    };
  };
  return { transcribe, calls };
}

/** Stands in for pg-boss in the registry: records what is queued, runs nothing. */
export function recordingBoss(h: VisitHarness) {
  const sent: { queue: string; data: unknown; key: unknown }[] = [];
  const boss = {
    async send(queue: string, data: unknown, options: { singletonKey?: string }) {
      sent.push({ queue, data, key: options.singletonKey });
      return `job-${sent.length}`;
    },
  };
  registerBoss(h.db, boss as unknown as PgBoss);
  return { sent, stop: () => unregisterBoss(h.db) };
}

/** Polls until `check` holds, or fails with `what`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
