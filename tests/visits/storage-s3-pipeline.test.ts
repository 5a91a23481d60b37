import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { storageConfig } from "#app/services/storage/config.server.ts";
import { visitPrefix } from "#app/services/storage/keys.ts";
import { createS3BlobStore } from "#app/services/storage/s3.server.ts";
import { openVisitAudio } from "#app/services/visits/audio-playback.server.ts";
import { acceptChunk } from "#app/services/visits/chunks.server.ts";
import { finishChunkedUpload } from "#app/services/visits/finish.server.ts";
import { deleteVisit } from "#app/services/visits/visits.server.ts";
import { createS3Mock, S3_ENDPOINT } from "#tests/mocks/s3.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { concat, seedVisit, sha256, type VisitHarness, webmChunks } from "./harness.ts";

// ADR 8 with S3: a chunked recording goes to the bucket, is assembled from it, plays back with a
// ranged GET (not the whole object), and deleting the visit empties its prefix. msw is the bucket.
const s3 = createS3Mock();
const server = setupServer(s3.handler);
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => server.close());

describeEachDatabase("visit audio on S3-compatible storage", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    const { openVisitHarness } = await import("./harness.ts");
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  function s3Store() {
    const config = storageConfig({
      MURMUR_DATA_DIR: h.dataDir,
      S3_BUCKET: "murmur-audio",
      S3_ENDPOINT,
      S3_FORCE_PATH_STYLE: "true",
      S3_PREFIX: "test",
      S3_ACCESS_KEY_ID: "AKIDTEST",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    if (config.kind !== "s3") throw new Error("expected S3 settings");
    return createS3BlobStore(config, { retryDelayMs: 1 });
  }

  it("stores chunks in the bucket, assembles them, seeks with ranged GETs and deletes the visit's prefix", async () => {
    const store = s3Store();
    const visitId = await seedVisit(h);
    const args = { db: h.db, actor: { userId: h.a.users.staff.id }, orgId: h.a.orgId, visitId, store };
    const chunks = webmChunks(3, 5000);
    for (const [seq, chunk] of chunks.entries()) {
      await acceptChunk({
        ...args,
        seq,
        claimedSha256: sha256(chunk),
        contentLength: chunk.byteLength,
        body: new Blob([new Uint8Array(chunk)]).stream(),
      });
    }
    const prefix = `murmur-audio/test/${visitPrefix(h.a.orgId, visitId)}/`;
    expect([...s3.objects.keys()].filter((k) => k.startsWith(`${prefix}chunks/`)).sort()).toEqual(
      [0, 1, 2].map((seq) => `${prefix}chunks/${seq}`),
    );

    const whole = concat(chunks);
    const done = await finishChunkedUpload({ ...args, manifest: { chunks: 3, bytes: whole.byteLength } });
    expect(done).toMatchObject({ status: "uploaded" });
    const audio = [...s3.objects.entries()].find(([k]) => k.startsWith(`${prefix}audio/`));
    expect(audio?.[0]).toBe(`${prefix}audio/${sha256(whole)}`);
    expect(sha256(audio?.[1] ?? new Uint8Array())).toBe(sha256(whole));

    s3.requests.length = 0;
    const played = await openVisitAudio({ ...args, rangeHeader: "bytes=6000-6099" });
    expect(played).toMatchObject({
      size: whole.byteLength,
      range: { kind: "partial", start: 6000, end: 6099 },
      // The type is what the first bytes show (one small ranged GET, once per blob), never a label.
      contentType: "audio/webm",
    });
    const bytes = new Uint8Array(await new Response(played.body).arrayBuffer());
    expect(bytes).toEqual(whole.subarray(6000, 6100));
    expect(s3.requests.map((r) => [r.method, r.range])).toEqual([
      ["GET", "bytes=0-15"],
      ["GET", "bytes=6000-6099"],
    ]);
    s3.requests.length = 0;
    const again = await openVisitAudio({ ...args, rangeHeader: "bytes=100-199" });
    expect(new Uint8Array(await new Response(again.body).arrayBuffer())).toEqual(whole.subarray(100, 200));
    expect(s3.requests.map((r) => [r.method, r.range])).toEqual([["GET", "bytes=100-199"]]);

    await deleteVisit(args);
    expect([...s3.objects.keys()].filter((k) => k.startsWith(prefix))).toEqual([]);
  });
});
