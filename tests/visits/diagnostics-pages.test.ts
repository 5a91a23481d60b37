import fs from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as realAudioPage from "#app/routes/diagnostics/test-real-audio.tsx";
import * as uploadPage from "#app/routes/diagnostics/test-upload.tsx";
import { realAudioSamples } from "#app/services/diagnostics/real-audio-sample.server.ts";
import { handleTranscribeVisit } from "#app/services/jobs/transcribe-visit.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, sha256, type VisitHarness, type Who } from "./harness.ts";

// Issue 5: /test-upload and /test-real-audio have no guard (SPEC §2) but act only for a signed-in
// member who may record visits; the visit they create is a real one, consented by that member.

describeEachDatabase("diagnostic pages", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  async function settle(run: () => unknown): Promise<{ status: number; data: unknown; location: string | null }> {
    let value: unknown;
    try {
      value = await run();
    } catch (thrown) {
      value = thrown;
    }
    if (value instanceof Response) return { status: value.status, data: null, location: value.headers.get("location") };
    const init = value as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (init?.type === "DataWithResponseInit") return { status: init.init?.status ?? 200, data: init.data, location: null };
    return { status: 200, data: value, location: null };
  }

  /** A page's loader (no form) or action (form) as `who`, with org A in the murmur-org cookie. */
  function page(
    mod: { loader: (a: never) => unknown; action: (a: never) => unknown },
    who: Who,
    path: string,
    form?: Record<string, string>,
  ) {
    const context = h.context();
    if (who !== "anonymous") {
      const user = who === "outsider" ? h.b.owner : h.a.users[who];
      context.set(userContext, { id: user.id, email: user.email });
    }
    const headers = { cookie: `murmur-org=${h.a.orgId}` };
    const request = form
      ? new Request(`${TEST_SITE_URL}${path}`, { method: "POST", headers, body: new URLSearchParams(form) })
      : new Request(`${TEST_SITE_URL}${path}`, { headers });
    const handler = form ? mod.action : mod.loader;
    return settle(() => handler({ request, context, params: {} } as never));
  }

  it("/test-upload: anonymous visitors get the sign-in state and cannot create anything; admins are refused", async () => {
    expect((await page(uploadPage, "anonymous", "/test-upload")).data).toEqual({ access: { state: "anonymous" } });
    const anonymous = await page(uploadPage, "anonymous", "/test-upload", { intent: "create", language: "en" });
    expect(anonymous).toMatchObject({ status: 401, data: { failure: { code: "sign_in_required" } } });
    const admin = await page(uploadPage, "admin", "/test-upload");
    expect(admin.data).toMatchObject({ access: { state: "forbidden" } });
    expect((await page(uploadPage, "admin", "/test-upload", { intent: "create", language: "en" })).status).toBe(403);
    expect((await page(uploadPage, "clinician", "/test-upload", { intent: "create", language: "de" })).status).toBe(400);
  });

  it("/test-upload: a clinician's create makes a Diagnostic patient and a visit consented by them, in the chosen language", async () => {
    const loaded = await page(uploadPage, "clinician", "/test-upload");
    expect(loaded.data).toMatchObject({ access: { state: "ready", orgId: h.a.orgId } });
    const created = await page(uploadPage, "clinician", "/fr/test-upload", { intent: "create", language: "fr" });
    const { visitId, orgId } = created.data as { visitId: string; orgId: string };
    expect(orgId).toBe(h.a.orgId);
    const { rows } = await sql<{ status: string; language: string; title: string; consent_by: string; display_name: string }>`
      select v.status, v.language, v.title, v.consent_by, p.display_name
      from public.visits v join public.patients p on p.id = v.patient_id where v.id = ${visitId}`.execute(h.db.kysely);
    expect(rows).toEqual([
      {
        status: "draft",
        language: "fr",
        title: "Téléversement de diagnostic",
        consent_by: h.a.users.clinician.id,
        display_name: "Diagnostic",
      },
    ]);
  });

  it("/test-real-audio: the Debian sample is uploaded as a real visit; the page shows its transcript and the WER", async (ctx) => {
    const sample = (await realAudioSamples())[0];
    const loaded = await page(realAudioPage, "anonymous", "/test-real-audio");
    if (!sample) {
      // Without the package the page says so (and nothing can run).
      expect(loaded.data).toMatchObject({ sample: null, testdataPackage: "pocketsphinx-testdata" });
      ctx.skip();
      return;
    }
    expect(loaded.data).toMatchObject({ access: { state: "anonymous" }, sample: { id: sample.id, reference: sample.reference } });
    const started = await page(realAudioPage, "clinician", "/es/test-real-audio", { intent: "run" });
    expect(started.status).toBe(302);
    const visitId = new URL(started.location ?? "", TEST_SITE_URL).searchParams.get("visit_id") ?? "";
    expect(started.location).toBe(`/es/test-real-audio?visit_id=${visitId}`);
    const { rows } = await sql<{ audio_sha256: string; status: string }>`
      select audio_sha256, status from public.visits where id = ${visitId}`.execute(h.db.kysely);
    expect(rows[0]).toEqual({ audio_sha256: sha256(fs.readFileSync(sample.path)), status: "uploaded" });

    const waiting = await page(realAudioPage, "clinician", `/test-real-audio?visit_id=${visitId}`);
    expect(waiting.data).toMatchObject({ run: { visitId, status: "uploaded", transcript: null, wer: null } });

    // Half the reference's words heard right (a stand-in engine here; the real one runs in the job runner).
    const words = sample.reference.split(" ");
    const half = words.slice(0, Math.ceil(words.length / 2)).join(" ");
    await handleTranscribeVisit(
      { id: "diag", data: { orgId: h.a.orgId, visitId } },
      { db: h.db, store: h.store, transcribe: async () => ({ text: half, segments: [], engine: "stand-in" }) },
    );
    const done = await page(realAudioPage, "clinician", `/test-real-audio?visit_id=${visitId}`);
    const missing = words.length - Math.ceil(words.length / 2);
    expect(done.data).toMatchObject({
      run: {
        status: "transcribed",
        transcript: half,
        wer: { errors: missing, words: words.length, rate: missing / words.length },
      },
    });
    // Another organisation's member does not see the run.
    const outsider = await page(realAudioPage, "outsider", `/test-real-audio?visit_id=${visitId}`);
    expect((outsider.data as { run: unknown }).run).toBeNull();
  });
});
