import { afterAll, beforeAll, expect, it } from "vitest";
import * as noteRoute from "#app/routes/resources/api-note.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";
import { generatedNote } from "./notes-harness.ts";

// Issue 25 probe: "PUT /api/notes/:id has no version check (a concurrent edit is silently lost)".
describeEachDatabase("PUT /api/notes/:id versions", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  }, 240_000);
  afterAll(async () => {
    await h.close();
  });

  const get = (noteId: string) => call(h, noteRoute, { method: "GET", path: `/api/notes/${noteId}`, params: { id: noteId } });
  const put = (noteId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(h, noteRoute, { method: "PUT", path: `/api/notes/${noteId}`, params: { id: noteId }, json: body, headers });

  it("needs a version, saves on the current one, answers 409 version_conflict on a stale one and keeps the first edit", async () => {
    const { noteId } = await generatedNote(h, createExtractiveEngine());
    const read = await get(noteId);
    const version = read.body.version as number;
    const key = (read.body.sections as { key: string }[])[0]?.key ?? "";
    expect(version).toBeGreaterThanOrEqual(1);

    const missing = await put(noteId, { sections: [{ key, text: "no version" }] });
    expect(missing.status).toBe(428);
    expect(missing.body).toMatchObject({ code: "version_required" });

    // Two people opened the same draft; the first saves.
    const first = await put(noteId, { sections: [{ key, text: "First clinician's edit." }], version });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(version + 1);
    // The second saves on what they read: refused, not silently overwriting the first.
    const second = await put(noteId, { sections: [{ key, text: "Second clinician's edit." }] }, { "if-match": `"${version}"` });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "version_conflict" });
    const now = await get(noteId);
    expect((now.body.sections as { key: string; text: string }[]).find((s) => s.key === key)?.text).toBe(
      "First clinician's edit.",
    );
    // Reloaded, the second edit goes through (If-Match, weak form too).
    const again = await put(
      noteId,
      { sections: [{ key, text: "Second clinician's edit." }] },
      { "if-match": `W/"${now.body.version}"` },
    );
    expect(again.status).toBe(200);
  });
});
