import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionWhisperModel } from "#app/services/speech/whisper-download.server.ts";
import type { KnownWhisperModel } from "#app/services/speech/whisper-known-models.ts";
import { makeMiniWhisperModel } from "#app/services/speech/whisper-mini-model.ts";
import { startLoopbackServer } from "./loopback-server.ts";
import { withTempDir } from "./synth.ts";

// Issue 26: set-up's Whisper download, against a local HTTP server serving the miniature model.
const model = makeMiniWhisperModel({ seed: 7, multilingual: true });
const sha1 = createHash("sha1").update(model).digest("hex");
const known: KnownWhisperModel[] = [
  { name: "mini", file: "ggml-mini.bin", sha1, approxSize: "4 MiB", multilingual: true },
  { name: "mini-wrong", file: "ggml-mini-wrong.bin", sha1: "0".repeat(40), approxSize: "4 MiB", multilingual: true },
];

describe("Whisper provisioning", () => {
  let server: Awaited<ReturnType<typeof startLoopbackServer>>;
  beforeAll(async () => {
    server = await startLoopbackServer();
    server.handle((request, response) => {
      const body = Buffer.from(model);
      if (request.path === "/ggml-mini.bin" || request.path === "/ggml-mini-wrong.bin") {
        response.writeHead(200, { "content-length": body.length }).end(body);
      } else if (request.path === "/truncated/ggml-mini.bin") {
        // Announces the whole file, sends half, then closes the connection.
        response.writeHead(200, { "content-length": body.length });
        response.write(body.subarray(0, body.length / 2), () => response.destroy());
      } else if (request.path === "/short/ggml-mini.bin") {
        // A shorter file sent as a whole (no length announced): only the checksum can tell.
        response.writeHead(200).end(body.subarray(0, body.length - 1000));
      } else if (request.path === "/hang/ggml-mini.bin") {
        response.writeHead(200, { "content-length": body.length });
        response.write(body.subarray(0, 1000)); // then nothing more
      } else if (request.path === "/silent/ggml-mini.bin") {
        // Never answers.
      } else response.writeHead(404).end("not found");
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const provision = (dir: string, model: string, path = "", extra = {}) =>
    provisionWhisperModel({ model, modelsDir: join(dir, "models"), baseUrl: `${server.url}${path}`, known, ...extra });

  it("downloads, verifies and installs the right file; a second run finds it in place", async () => {
    await withTempDir(async (dir) => {
      const outcome = await provision(dir, "mini");
      expect(outcome).toEqual({ ok: true, status: "downloaded", path: join(dir, "models", "ggml-mini.bin"), sha1 });
      expect(
        createHash("sha1")
          .update(await readFile(join(dir, "models", "ggml-mini.bin")))
          .digest("hex"),
      ).toBe(sha1);
      expect(await provision(dir, "mini")).toMatchObject({ ok: true, status: "present" });
    });
  });

  it("refuses a wrong checksum, a truncated or short file, a 404 and an unknown name, leaving nothing behind", async () => {
    await withTempDir(async (dir) => {
      expect(await provision(dir, "mini-wrong")).toMatchObject({ ok: false, status: "checksum" });
      expect(await provision(dir, "mini", "/truncated")).toMatchObject({
        ok: false,
        status: expect.stringMatching(/network|truncated/),
      });
      expect(await provision(dir, "mini", "/short")).toMatchObject({ ok: false, status: "checksum" });
      expect(await provision(dir, "mini", "/missing")).toMatchObject({
        ok: false,
        status: "http_error",
        message: expect.stringContaining("404"),
      });
      expect(await provision(dir, "ggml-huge")).toMatchObject({ ok: false, status: "unknown_model" });
      expect(await readdir(join(dir, "models"))).toEqual([]);
    });
  });

  it("gives up on a server that stalls or never answers, within its time limits", async () => {
    await withTempDir(async (dir) => {
      let started = Date.now();
      expect(await provision(dir, "mini", "/hang", { idleTimeoutMs: 500 })).toMatchObject({ ok: false, status: "timeout" });
      expect(Date.now() - started).toBeLessThan(5_000);
      started = Date.now();
      expect(await provision(dir, "mini", "/silent", { connectTimeoutMs: 500 })).toMatchObject({ ok: false, status: "timeout" });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await readdir(join(dir, "models"))).toEqual([]);
    });
  });

  it("the set-up script never fails: one line says the embedded engine will be used", async () => {
    await withTempDir(async (dir) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["scripts/provision-whisper.ts", "--model", "base", "--base-url", `${server.url}/missing`],
        { env: { ...process.env, MURMUR_DATA_DIR: dir } },
      );
      expect(stdout.trim().split("\n")).toEqual([
        expect.stringMatching(/^Whisper model base not installed \(http_error: .*404\); the embedded engine will be used\.$/),
      ]);
    });
  });
});
