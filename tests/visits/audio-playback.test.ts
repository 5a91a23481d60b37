import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fileRoute from "#app/routes/resources/api-visit-audio-file.ts";
import { parseByteRange } from "#app/services/visits/byte-range.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, seedVisit, type VisitHarness } from "./harness.ts";
import { getRaw, uploadedVisit, wavFile } from "./pipeline-helpers.ts";

// Issue 5 "click-to-seek playback": GET /api/visits/:id/audio/file serves the recording with
// byte ranges, which an <audio> element uses to seek.

describeEachDatabase("visit audio playback", (target) => {
  let h: VisitHarness;
  let visitId: string;
  const wav = wavFile(4000);
  const size = wav.byteLength;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    visitId = await uploadedVisit(h, wav);
  });

  afterAll(async () => {
    await h.close();
  });

  const get = (
    headers: Record<string, string> = {},
    options: { as?: "owner" | "staff" | "admin" | "outsider"; id?: string; method?: string } = {},
  ) => {
    const id = options.id ?? visitId;
    return getRaw(h, fileRoute.loader, {
      path: `/api/visits/${id}/audio/file`,
      params: { id },
      as: options.as,
      headers,
      method: options.method,
    });
  };
  const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());

  it("serves the whole recording with its type, its length, no-store and Accept-Ranges", async () => {
    const res = await get({}, { as: "staff" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    expect(res.headers.get("content-length")).toBe(String(size));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(await bytes(res)).toEqual(wav);
  });

  it("answers a byte range with 206, its Content-Range and exactly those bytes", async () => {
    const cases: [string, number, number][] = [
      ["bytes=0-99", 0, 99],
      ["bytes=1000-1999", 1000, 1999],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ["bytes=-64", size - 64, size - 1],
      [`bytes=100-${size + 5000}`, 100, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get("content-length"), range).toBe(String(end - start + 1));
      expect(await bytes(res), range).toEqual(wav.subarray(start, end + 1));
    }
  });

  it("answers an unsatisfiable or malformed byte range with 416 and the size", async () => {
    for (const range of [
      `bytes=${size}-`,
      `bytes=${size + 100}-${size + 200}`,
      "bytes=500-100",
      "bytes=abc",
      "bytes=-0",
      "bytes=-",
    ]) {
      const res = await get({ range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range"), range).toBe(`bytes */${size}`);
      expect(((await res.json()) as { code: string }).code).toBe("range_not_satisfiable");
    }
  });

  it("ignores ranges in another unit or several ranges at once (the whole recording)", async () => {
    for (const range of ["items=0-5", "bytes=0-1,5-9"]) {
      const res = await get({ range });
      expect(res.status, range).toBe(200);
      expect((await bytes(res)).byteLength).toBe(size);
    }
  });

  it("HEAD answers the headers without the bytes", async () => {
    const res = await get({}, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(size));
    expect(res.body).toBeNull();
  });

  it("a visit without audio, or whose audio is gone from storage, is 404 no_audio", async () => {
    const draft = await seedVisit(h);
    const none = await get({}, { id: draft });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { code: string }).code).toBe("no_audio");
    const other = await uploadedVisit(h);
    const { rows } = await sql<{ audio_key: string }>`select audio_key from public.visits where id = ${other}`.execute(
      h.db.kysely,
    );
    await h.store.delete(rows[0]?.audio_key ?? "");
    const gone = await get({}, { id: other });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe("no_audio");
  });

  it("admins get 403 and another organisation 404", async () => {
    const byAdmin = await get({}, { as: "admin" });
    expect(byAdmin.status).toBe(403);
    const byOutsider = await get({}, { as: "outsider" });
    expect(byOutsider.status).toBe(404);
    expect(((await byOutsider.json()) as { code: string }).code).toBe("visit_not_found");
  });
});

describe("parseByteRange", () => {
  it("reads the single-range forms and refuses what cannot be served", () => {
    expect(parseByteRange(null, 100)).toEqual({ kind: "full" });
    expect(parseByteRange("bytes=0-0", 100)).toEqual({ kind: "partial", start: 0, end: 0 });
    expect(parseByteRange("bytes=90-", 100)).toEqual({ kind: "partial", start: 90, end: 99 });
    expect(parseByteRange("bytes=-500", 100)).toEqual({ kind: "partial", start: 0, end: 99 });
    expect(parseByteRange("Bytes = 10 - 20", 100)).toEqual({ kind: "partial", start: 10, end: 20 });
    expect(parseByteRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseByteRange("bytes=100-", 100)).toEqual({ kind: "unsatisfiable" });
    expect(parseByteRange("bytes=1.5-3", 100)).toEqual({ kind: "unsatisfiable" });
  });
});
