import { createHash, randomBytes } from "node:crypto";

// The load the issue describes: recorders that PUT a chunk every few seconds, as the browser's
// recorder does (one at a time per visit, the next after the previous is acknowledged), and users
// browsing the signed-in API and the sign-in page.

export interface Session {
  token: string;
  orgId: string;
  visitIds: string[];
}

export interface Sample {
  route: string;
  ms: number;
  status: number;
}

export interface ChunkLog {
  visitId: string;
  /** sha256 of each acknowledged chunk, by sequence number. */
  acknowledged: string[];
  failures: number;
  retries: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function headers(session: Session, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${session.token}`, "x-org-id": session.orgId, ...extra };
}

/** One visit's recorder until `endAt`: a chunk of `bytes` every `intervalMs`, retried until acknowledged. */
export async function record(
  base: string,
  session: Session,
  visitId: string,
  opts: { endAt: number; intervalMs: number; bytes: number; startDelayMs: number },
  samples: Sample[],
): Promise<ChunkLog> {
  const log: ChunkLog = { visitId, acknowledged: [], failures: 0, retries: 0 };
  await sleep(opts.startDelayMs);
  let due = Date.now();
  for (let seq = 0; Date.now() < opts.endAt; seq++) {
    const body = randomBytes(opts.bytes);
    const sha = createHash("sha256").update(body).digest("hex");
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let status = 0;
      try {
        const res = await fetch(`${base}/api/visits/${visitId}/audio/chunks/${seq}`, {
          method: "PUT",
          headers: headers(session, { "content-type": "application/octet-stream", "x-chunk-sha256": sha }),
          body,
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = 0;
      }
      samples.push({ route: "PUT chunk", ms: performance.now() - started, status });
      if (status === 200) break;
      log.failures++;
      if (attempt >= 5) throw new Error(`chunk ${seq} of ${visitId} never acknowledged (last status ${status})`);
      log.retries++;
      await sleep(500);
    }
    log.acknowledged[seq] = sha;
    due += opts.intervalMs;
    await sleep(Math.max(0, due - Date.now()));
  }
  return log;
}

/** One browsing user until `endAt`: lists, a visit, the dashboard and the sign-in page, with a pause between. */
export async function browse(base: string, session: Session, opts: { endAt: number; thinkMs: number }, samples: Sample[]) {
  const get = async (route: string, path: string, auth: boolean) => {
    const started = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${base}${path}`, { headers: auth ? headers(session) : {} });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 0;
    }
    samples.push({ route, ms: performance.now() - started, status });
  };
  let i = 0;
  while (Date.now() < opts.endAt) {
    const visitId = session.visitIds[i++ % session.visitIds.length];
    await get("GET /api/visits", "/api/visits?limit=50", true);
    await sleep(opts.thinkMs);
    if (visitId) await get("GET /api/visits/:id", `/api/visits/${visitId}`, true);
    await sleep(opts.thinkMs);
    await get("GET /api/dashboard", "/api/dashboard", true);
    await sleep(opts.thinkMs);
    await get("GET /login (SSR)", "/login", false);
    await sleep(opts.thinkMs);
  }
}
