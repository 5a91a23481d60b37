import { PING_PATH } from "./constants.ts";
import type { FinishManifest } from "./manifest.ts";

export type { FinishManifest };

/**
 * The visit audio API as the browser sees it (issue 5 API; the server side lives in
 * app/routes/resources/api-visit-audio-*.ts). Every answer is reduced to what the queue does next.
 */
export type ChunkUploadResult =
  | { kind: "ack"; duplicate: boolean }
  /** 422 chunk_checksum_mismatch: the bytes were damaged on the way; send them again. */
  | { kind: "checksum_mismatch" }
  /** 409 chunk_conflict: the server holds other bytes for this seq. Never expected; keep ours. */
  | { kind: "conflict" }
  /** 401: the session is gone; keep everything and try again once signed in. */
  | { kind: "unauthorized" }
  /** 5xx, 408, 429: the server is there but cannot take it now. */
  | { kind: "retry"; status: number }
  /** No answer at all: offline, DNS, connection reset, server restarting. */
  | { kind: "network" }
  /** Any other refusal (409 visit_closed, 402 trial_ended, 404, 403…): retrying will not help. */
  | { kind: "rejected"; status: number; code: string };

export type FinishResult =
  | { kind: "ok" }
  | { kind: "chunks_missing"; missing: number[] }
  | { kind: "unauthorized" }
  | { kind: "retry"; status: number }
  | { kind: "network" }
  | { kind: "rejected"; status: number; code: string };

export interface ChunkUpload {
  visitId: string;
  orgId: string;
  seq: number;
  data: Uint8Array<ArrayBuffer>;
  sha256: string;
  mimeType: string;
}

type Classified =
  | { kind: "unauthorized" }
  | { kind: "retry"; status: number }
  | { kind: "rejected"; status: number; code: string };

async function readCode(res: Response): Promise<{ code: string; body: Record<string, unknown> }> {
  try {
    const body: unknown = await res.json();
    if (body && typeof body === "object") {
      const record = body as Record<string, unknown>;
      return { code: typeof record.code === "string" ? record.code : `http_${res.status}`, body: record };
    }
  } catch {
    // Not JSON (a proxy's error page): the status decides.
  }
  return { code: `http_${res.status}`, body: {} };
}

function classify(status: number, code: string): Classified {
  if (status === 401) return { kind: "unauthorized" };
  if (status >= 500 || status === 408 || status === 429) return { kind: "retry", status };
  return { kind: "rejected", status, code };
}

const visitPath = (visitId: string) => `/api/visits/${encodeURIComponent(visitId)}/audio`;

export function createAudioApi(deps: { fetch: typeof fetch }) {
  async function send(url: string, init: RequestInit): Promise<Response | null> {
    try {
      return await deps.fetch(url, { credentials: "same-origin", cache: "no-store", ...init });
    } catch {
      return null;
    }
  }

  return {
    /** PUT …/chunks/:seq — raw bytes, their SHA-256, and the chunk's own organisation (not the page's). */
    async putChunk(chunk: ChunkUpload): Promise<ChunkUploadResult> {
      const res = await send(`${visitPath(chunk.visitId)}/chunks/${chunk.seq}`, {
        method: "PUT",
        headers: {
          "content-type": chunk.mimeType || "application/octet-stream",
          "x-chunk-sha256": chunk.sha256,
          "x-org-id": chunk.orgId,
        },
        body: chunk.data,
      });
      if (!res) return { kind: "network" };
      const { code, body } = await readCode(res);
      if (res.ok)
        return body.acknowledged === true
          ? { kind: "ack", duplicate: body.duplicate === true }
          : { kind: "retry", status: res.status };
      if (res.status === 422 && code === "chunk_checksum_mismatch") return { kind: "checksum_mismatch" };
      if (res.status === 409 && code === "chunk_conflict") return { kind: "conflict" };
      return classify(res.status, code);
    },

    /** POST …/finish with the manifest; 409 chunks_missing lists the seqs the server lacks. */
    async finish(visitId: string, orgId: string, manifest: FinishManifest): Promise<FinishResult> {
      const res = await send(`${visitPath(visitId)}/finish`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-org-id": orgId },
        body: JSON.stringify(manifest),
      });
      if (!res) return { kind: "network" };
      if (res.ok) return { kind: "ok" };
      const { code, body } = await readCode(res);
      if (res.status === 409 && code === "chunks_missing") {
        const missing = Array.isArray(body.missing) ? body.missing.filter((seq): seq is number => Number.isInteger(seq)) : [];
        return { kind: "chunks_missing", missing };
      }
      return classify(res.status, code);
    },

    /** SPEC §7 HEAD /api/ping: true when the server answers (no cache). */
    async ping(): Promise<boolean> {
      const res = await send(PING_PATH, { method: "HEAD" });
      return res?.ok ?? false;
    },
  };
}

export type AudioApi = ReturnType<typeof createAudioApi>;
