import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { KNOWN_WHISPER_MODELS, type KnownWhisperModel } from "./whisper-known-models.ts";

/**
 * Set-up's Whisper download (issue 26; scripts/provision-whisper.ts): one published GGML file into
 * MURMUR_DATA_DIR/models/, kept only when its SHA-1 is the one whisper.cpp publishes
 * (whisper-known-models.ts). Never throws: every failure is an outcome with one line to print,
 * and the embedded engine is used instead. Bounded in time: connecting and each pause in the body
 * have their own limit, and the whole download has one.
 */
export const DEFAULT_WHISPER_MODEL = "base";
export const WHISPER_DOWNLOAD_BASE = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";

export interface ProvisionOptions {
  /** A name from whisper-known-models.ts ("base", "small", "base.en"…). */
  model: string;
  modelsDir: string;
  baseUrl?: string;
  /** Until the response headers arrive (default 15 s: no network must not hang set-up). */
  connectTimeoutMs?: number;
  /** Longest pause between two pieces of the body (default 30 s). */
  idleTimeoutMs?: number;
  /** The whole download (default 20 min). */
  totalTimeoutMs?: number;
  /** Tests give a table with the miniature model's checksum. */
  known?: readonly KnownWhisperModel[];
  onProgress?: (bytes: number, total: number | null) => void;
}

export type ProvisionOutcome =
  | { ok: true; status: "downloaded" | "present"; path: string; sha1: string }
  | {
      ok: false;
      status: "unknown_model" | "http_error" | "network" | "timeout" | "truncated" | "checksum" | "disk";
      message: string;
    };

async function sha1Of(path: string): Promise<string> {
  const { createReadStream } = await import("node:fs");
  const hash = createHash("sha1");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function provisionWhisperModel(options: ProvisionOptions): Promise<ProvisionOutcome> {
  const known = (options.known ?? KNOWN_WHISPER_MODELS).find((m) => m.name === options.model);
  if (!known) {
    return { ok: false, status: "unknown_model", message: `"${options.model}" is not a published whisper.cpp model name` };
  }
  const target = join(options.modelsDir, known.file);
  // Already there and right: nothing to fetch (set-up run twice).
  if (
    await stat(target).then(
      (s) => s.isFile(),
      () => false,
    )
  ) {
    if ((await sha1Of(target)) === known.sha1) return { ok: true, status: "present", path: target, sha1: known.sha1 };
  }
  try {
    await mkdir(options.modelsDir, { recursive: true });
  } catch (error) {
    return { ok: false, status: "disk", message: `cannot create ${options.modelsDir}: ${(error as Error).message}` };
  }
  const partial = `${target}.part-${process.pid}`;
  const controller = new AbortController();
  let why: "connect" | "idle" | "total" | null = null;
  const abort = (reason: typeof why) => {
    why ??= reason;
    controller.abort();
  };
  const total = setTimeout(() => abort("total"), options.totalTimeoutMs ?? 20 * 60_000);
  let idle = setTimeout(() => abort("connect"), options.connectTimeoutMs ?? 15_000);
  const rearm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort("idle"), options.idleTimeoutMs ?? 30_000);
  };
  const url = `${(options.baseUrl ?? WHISPER_DOWNLOAD_BASE).replace(/\/$/, "")}/${known.file}`;
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: "follow" });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return { ok: false, status: "http_error", message: `${url} answered HTTP ${response.status}` };
    }
    rearm();
    const expected = Number(response.headers.get("content-length")) || null;
    const hash = createHash("sha1");
    const out = createWriteStream(partial);
    let bytes = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        rearm();
        hash.update(chunk);
        bytes += chunk.length;
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", resolve));
        options.onProgress?.(bytes, expected);
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    }
    if (expected !== null && bytes !== expected) {
      return { ok: false, status: "truncated", message: `got ${bytes} of ${expected} bytes` };
    }
    const sha1 = hash.digest("hex");
    if (sha1 !== known.sha1) {
      return {
        ok: false,
        status: "checksum",
        message: `SHA-1 ${sha1} is not the published ${known.sha1} (truncated or altered file)`,
      };
    }
    await rename(partial, target);
    return { ok: true, status: "downloaded", path: target, sha1 };
  } catch (error) {
    if (why === "connect" || why === "idle" || why === "total") {
      const limit =
        why === "connect" ? "no answer in time" : why === "idle" ? "the download stalled" : "the download took too long";
      return { ok: false, status: "timeout", message: `${url}: ${limit}` };
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    // A body cut off mid-way surfaces as a network error; the length check above catches the rest.
    return { ok: false, status: "network", message: `${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    await rm(partial, { force: true });
  }
}
