import fs from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as pdfRoute from "#app/routes/resources/api-note-pdf.ts";
import * as apiTemplateExport from "#app/routes/resources/api-template-export.ts";
import * as apiTemplates from "#app/routes/resources/api-templates.ts";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as audioRoute from "#app/routes/resources/api-visit-audio.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import * as fileRoute from "#app/routes/resources/api-visit-audio-file.ts";
import * as finishRoute from "#app/routes/resources/api-visit-audio-finish.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { getBuiltinTemplate } from "#app/services/notes/templates/builtin/index.ts";
import { audioKey } from "#app/services/storage/keys.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedVisit, sha256, type VisitHarness, webmChunks } from "#tests/visits/harness.ts";
import { generatedNote } from "../notes/notes-harness.ts";
import { getRaw, uploadedVisit, wavFile } from "./pipeline-helpers.ts";

// Stored XSS through the audio type: the uploader's Content-Type (or manifest `mime_type`) was
// served back, and `audio/wav; x=1, text/html` is text/html to a browser. Now a declared type must
// be one plain audio type (415 otherwise), the file is served as the type its bytes show, and every
// file response carries the file security headers (app/utils/file-response.ts).

const LIST_TYPES = ["audio/wav; x=1, text/html", "audio/wav; x=1, text/javascript", "audio/wav,text/html"];
const OTHER_BAD_TYPES = [
  "text/html",
  "audio/*",
  "audio/wav;",
  'audio/wav; x="a,b"',
  "audio/wav; codecs=opus; a=1; b=2; c=3; d=4",
  "audio/wav x",
  "audio/w\u0007av",
];
const SCRIPT = new TextEncoder().encode('alert(document.domain);//<script src="/x"></script>\n'.repeat(20));

function expectFileSecurityHeaders(res: Response, what: string) {
  expect(res.headers.get("content-security-policy"), what).toBe("default-src 'none'; sandbox");
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("cross-origin-resource-policy"), what).toBe("same-origin");
}

describeEachDatabase("audio type safety", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  const upload = (visitId: string, body: Uint8Array, contentType: string) =>
    call(h, audioRoute, {
      method: "POST",
      path: `/api/visits/${visitId}/audio`,
      params: { id: visitId },
      body,
      headers: { "content-type": contentType },
    });
  const putChunk = (visitId: string, seq: number, data: Uint8Array) =>
    call(h, chunkRoute, {
      method: "PUT",
      path: `/api/visits/${visitId}/audio/chunks/${seq}`,
      params: { id: visitId, seq: String(seq) },
      body: data,
      headers: { "x-chunk-sha256": sha256(data), "content-type": "application/octet-stream" },
    });
  const finish = (visitId: string, manifest: unknown) =>
    call(h, finishRoute, {
      method: "POST",
      path: `/api/visits/${visitId}/audio/finish`,
      params: { id: visitId },
      json: manifest,
    });
  const fileOf = (visitId: string, headers: Record<string, string> = {}, method = "GET") =>
    getRaw(h, fileRoute.loader, {
      path: `/api/visits/${visitId}/audio/file?org_id=${h.a.orgId}`,
      params: { id: visitId },
      orgId: null,
      headers,
      method,
    });
  const row = async (visitId: string) =>
    (
      await sql<{ status: string; audio_key: string | null; audio_content_type: string | null }>`
        select status, audio_key, audio_content_type from public.visits where id = ${visitId}`.execute(h.db.kysely)
    ).rows[0];

  /** A visit whose audio was stored before the fix: `bytes` under a label the API now refuses. */
  async function storedWithLabel(bytes: Uint8Array, label: string): Promise<string> {
    const visitId = await seedVisit(h);
    const key = audioKey(h.a.orgId, visitId, sha256(bytes));
    await h.store.put(key, bytes);
    await sql`update public.visits set status = 'uploaded', audio_source = 'file', audio_bytes = ${bytes.byteLength},
        audio_sha256 = ${sha256(bytes)}, audio_key = ${key}, audio_content_type = ${label}, uploaded_at = now()
      where id = ${visitId}`.execute(h.db.kysely);
    return visitId;
  }

  it("POST /api/visits/:id/audio refuses a list of types, or anything but one plain audio type, with 415", async () => {
    const visitId = await seedVisit(h);
    for (const type of [...LIST_TYPES, ...OTHER_BAD_TYPES]) {
      expect(await upload(visitId, wavFile(800), type), type).toMatchObject({
        status: 415,
        body: { code: "unsupported_media_type" },
      });
    }
    expect(await row(visitId)).toMatchObject({ status: "draft", audio_key: null, audio_content_type: null });
    // A plain type with simple parameters passes, normalised.
    expect((await upload(visitId, wavFile(800), 'Audio/WAV; Rate="16000"')).status).toBe(200);
    expect((await row(visitId))?.audio_content_type).toBe("audio/wav;rate=16000");
  });

  it("finishing chunks with a list (or any non-plain type) as mime_type is 415 and assembles nothing", async () => {
    const visitId = await seedVisit(h);
    const chunks = webmChunks(2);
    for (const [seq, data] of chunks.entries()) expect((await putChunk(visitId, seq, data)).status).toBe(200);
    for (const mime_type of [...LIST_TYPES, ...OTHER_BAD_TYPES]) {
      expect(await finish(visitId, { chunks: 2, mime_type }), mime_type).toMatchObject({
        status: 415,
        body: { code: "unsupported_media_type" },
      });
    }
    expect(await row(visitId)).toMatchObject({ status: "recording", audio_key: null });
    const done = await finish(visitId, { chunks: 2, mime_type: "audio/ogg; codecs=opus" });
    expect(done.status).toBe(200);
    expect(done.body.audio.content_type).toBe("audio/ogg;codecs=opus");
    // Served as what the bytes are (WebM), not as the label.
    const res = await fileOf(visitId);
    expect(res.headers.get("content-type")).toBe("audio/webm");
  });

  it("the attack as reported: neither upload path stores a type, and the script 'recording' is never served as script", async () => {
    const scriptVisit = await seedVisit(h);
    await putChunk(scriptVisit, 0, SCRIPT);
    expect((await finish(scriptVisit, { chunks: 1, mime_type: "audio/wav; x=1, text/javascript" })).status).toBe(415);
    // Even a plain audio label does not make unknown bytes audio: they are only downloaded.
    expect((await finish(scriptVisit, { chunks: 1, mime_type: "audio/wav" })).status).toBe(200);
    const res = await fileOf(scriptVisit);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="visit-[0-9a-f-]{36}\.bin"/);
    expectFileSecurityHeaders(res, "script body");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(SCRIPT);
  });

  it("a file stored earlier under a list type is served as its detected type, with the security headers", async () => {
    const wav = wavFile(4000);
    const visitId = await storedWithLabel(wav, "audio/wav; x=1, text/html");
    const res = await fileOf(visitId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="visit-${visitId}.wav"; filename*=UTF-8''visit-${visitId}.wav`,
    );
    expectFileSecurityHeaders(res, "legacy wav");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(wav);
    // The API does not repeat the bad label either.
    const visit = await call(h, visitRoute, { method: "GET", path: `/api/visits/${visitId}`, params: { id: visitId } });
    expect(visit.body.audio.content_type).toBeNull();

    const html = new TextEncoder().encode("<script>alert(document.domain)</script>");
    const htmlVisit = await storedWithLabel(html, "audio/wav; x=1, text/html");
    const htmlRes = await fileOf(htmlVisit);
    expect(htmlRes.headers.get("content-type")).toBe("application/octet-stream");
    expect(htmlRes.headers.get("content-disposition")).toMatch(/^attachment; /);
    expectFileSecurityHeaders(htmlRes, "legacy html");
  });

  it("every audio file answer carries the headers: whole, range, HEAD, unsatisfiable", async () => {
    const visitId = await uploadedVisit(h, wavFile(4000));
    const answers: [string, Response][] = [
      ["whole", await fileOf(visitId)],
      ["range", await fileOf(visitId, { range: "bytes=0-99" })],
      ["head", await fileOf(visitId, {}, "HEAD")],
      ["416", await fileOf(visitId, { range: "bytes=999999-" })],
    ];
    expect(answers.map(([what, res]) => [what, res.status])).toEqual([
      ["whole", 200],
      ["range", 206],
      ["head", 200],
      ["416", 416],
    ]);
    for (const [what, res] of answers) {
      expectFileSecurityHeaders(res, what);
      if (what !== "416") {
        expect(res.headers.get("content-type"), what).toBe("audio/wav");
        expect(res.headers.get("content-disposition"), what).toMatch(/^inline; /);
      }
      await res.body?.cancel();
    }
  });

  it("a range whose end is past the end of the file is clamped (206), however many digits it has", async () => {
    const wav = wavFile(4000);
    const size = wav.byteLength;
    const visitId = await uploadedVisit(h, wav);
    for (const range of [`bytes=10-${size}`, "bytes=10-99999999999999999999", "bytes=0000000000000000010-99999999999"]) {
      const res = await fileOf(visitId, { range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("content-range"), range).toBe(`bytes 10-${size - 1}/${size}`);
      expect(new Uint8Array(await res.arrayBuffer()), range).toEqual(wav.subarray(10));
    }
    const suffix = await fileOf(visitId, { range: "bytes=-99999999999999999999" });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe(`bytes 0-${size - 1}/${size}`);
    await suffix.body?.cancel();
    // Only a start beyond the end is unsatisfiable.
    const beyond = await fileOf(visitId, { range: "bytes=99999999999999999999-" });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);
  });

  it("the note PDF and the template export are attachments with safe names and the security headers", async () => {
    const { noteId } = await generatedNote(h, createExtractiveEngine());
    const pdf = await getRaw(h, pdfRoute.loader, { path: `/api/notes/${noteId}/pdf`, params: { id: noteId }, as: "clinician" });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="note-${noteId}.pdf"; filename*=UTF-8''note-${noteId}.pdf`,
    );
    expectFileSecurityHeaders(pdf, "pdf");
    await pdf.body?.cancel();

    const soap = getBuiltinTemplate("builtin:soap", "en");
    const name = 'Évaluation "x"; filename=evil.html <b>';
    const created = await call(h, apiTemplates, {
      method: "POST",
      path: "/api/templates",
      json: { name, language: "en", description: "", sections: soap?.sections },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const exported = await getRaw(h, apiTemplateExport.loader, { path: `/api/templates/${id}/export`, params: { id } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const disposition = exported.headers.get("content-disposition") ?? "";
    expect(disposition).toBe(
      `attachment; filename="Evaluation _x_ filename_evil.html _b_.murmur-template.json"; ` +
        `filename*=UTF-8''%C3%89valuation%20_x_%3B%20filename%3Devil.html%20_b_.murmur-template.json`,
    );
    // One quoted filename, nothing after it but the encoded one: no injected parameter survives.
    expect(disposition.match(/"/g)).toHaveLength(2);
    expectFileSecurityHeaders(exported, "export");
    expect(((await exported.json()) as { template: { name: string } }).template.name).toBe(name);
  });

  it("nothing is left in scratch space by refused uploads", async () => {
    expect(fs.readdirSync(`${h.dataDir}/blobs/.scratch`)).toEqual([]);
  });
});
