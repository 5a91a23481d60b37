import { readFileSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import { action, loader } from "#app/routes/app/dashboard.tsx";
import { type JobsHandle, startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { TRANSCRIBE_VISIT_QUEUE } from "#app/services/jobs/queues.ts";
import { handleTranscribeVisit } from "#app/services/jobs/transcribe-visit.server.ts";
import { parseDialogue } from "#app/services/onboarding/sample-visit/dialogue.ts";
import {
  SAMPLE_PATIENT_EXTERNAL_ID,
  sampleVisitAudioPath,
  startSampleVisit,
} from "#app/services/onboarding/sample-visit.server.ts";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { createSpeechRegistry, parseSpeechEnv } from "#app/services/speech/config.server.ts";
import { createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import { wer } from "#app/services/speech/wer.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";
import { openVisitHarness, sha256, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 11 "First run": "Try a sample visit" uploads the bundled conversation through the real
// upload service (storage, audit, allowance, transcription job), over a real database.

const NOW = new Date("2026-03-10T09:00:00Z");
// Measured 0.273 with the default conversation model (pocketsphinx 5, espeak-ng 1.52); the margin
// is for other builds of the Debian packages only (decoding is deterministic).
const SAMPLE_MAX_WER = 0.4;
const DECODE_TIMEOUT_MS = 240_000;

describeEachDatabase("first run: the sample visit", (target) => {
  let h: VisitHarness;
  let jobs: JobsHandle;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    // Queues only (no workers): the test runs the handler itself.
    jobs = await startJobs({ env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") });
  });
  afterAll(async () => {
    await stopJobs(h.db);
    await h.close();
  });
  // Only Date is faked: the database drivers keep their real timers.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function contextAs(role: OrgRole, orgId = h.a.orgId) {
    const context = h.context();
    const user = h.a.users[role];
    const org = {
      id: orgId,
      name: "A",
      slug: "a",
      kind: "practice",
      plan: "Clinic",
      pms: "none",
      timezone: "Europe/Paris",
      region: "eu",
      trial_ends_at: null,
      role,
    } as const;
    context.set(orgContext, { user, org, role, orgs: [org as MemberOrg], switchedFrom: null });
    return context;
  }

  /** The dashboard action's answer as a client sees it: a redirect, or data with its status. */
  async function trySample(role: OrgRole, orgId?: string, path = "/fr/dashboard"): Promise<Response> {
    const request = new Request(`http://murmur.test${path}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "sample_visit" }),
    });
    try {
      const result = await action({ request, context: contextAs(role, orgId), params: {} } as never);
      const { data, init } = result as unknown as { data: unknown; init: { status: number } };
      return Response.json(data, { status: init.status });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  async function firstRun(role: OrgRole, orgId?: string) {
    const request = new Request("http://murmur.test/fr/dashboard");
    // biome-ignore lint/suspicious/noExplicitAny: only firstRun is read.
    const page = (await loader({ request, context: contextAs(role, orgId), params: {} } as never)) as any;
    return page.firstRun as { patient: boolean; visit: boolean; note: boolean };
  }

  async function visitRow(id: string) {
    const { rows } = await sql<{
      status: string;
      language: string;
      title: string;
      audio_source: string;
      audio_sha256: string;
      audio_key: string;
      patient_id: string;
      consent_by: string;
    }>`select status, language, title, audio_source, audio_sha256, audio_key, patient_id, consent_by
       from public.visits where id = ${id}`.execute(h.db.kysely);
    return rows[0];
  }

  it("uploads the bundled conversation as a new visit of the sample patient, queues its transcription and opens it", async () => {
    // A practice of its own, so the checklist starts empty.
    const orgId = await createOrg(h.db, [{ userId: h.a.users.clinician.id, role: "clinician" }], { plan: "Clinic" });
    expect(await firstRun("clinician", orgId)).toEqual({ patient: false, visit: false, note: false });

    const res = await trySample("clinician", orgId);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "", "http://murmur.test");
    expect(location.pathname).toBe("/fr/transcribing");
    const visitId = location.searchParams.get("visit_id") ?? "";

    const visit = await visitRow(visitId);
    const asset = readFileSync(sampleVisitAudioPath());
    expect(visit).toMatchObject({
      status: "uploaded",
      language: "en",
      title: "Consultation d’exemple : douleur dentaire",
      audio_source: "file",
      audio_sha256: sha256(asset),
      consent_by: h.a.users.clinician.id,
    });
    // The stored bytes are the committed asset's.
    const stored = await h.store.get(visit?.audio_key ?? "");
    expect(Buffer.concat(await stored.toArray()).equals(asset)).toBe(true);
    const { rows: patients } = await sql<{ display_name: string; external_id: string }>`
      select display_name, external_id from public.patients where id = ${visit?.patient_id}`.execute(h.db.kysely);
    expect(patients).toEqual([{ display_name: "Patient d’exemple (Murmur)", external_id: SAMPLE_PATIENT_EXTERNAL_ID }]);
    const found = await jobs.boss.findJobs<{ orgId: string; visitId: string }>(TRANSCRIBE_VISIT_QUEUE, { key: visitId });
    expect(found.map((j) => j.data)).toEqual([{ orgId, visitId }]);
    const { rows: audit } = await sql<{ action: string }>`
      select action from public.audit_log where entity_id = ${visitId} order by action`.execute(h.db.kysely);
    expect(audit.map((a) => a.action)).toContain("visit.audio_uploaded");

    // The visit step is done; the sample patient is Murmur's, so "add a patient" is not.
    expect(await firstRun("clinician", orgId)).toEqual({ patient: false, visit: true, note: false });

    // A second try reuses the sample patient and makes a second visit.
    const again = await trySample("clinician", orgId, "/dashboard");
    const secondId = new URL(again.headers.get("location") ?? "", "http://murmur.test").searchParams.get("visit_id") ?? "";
    expect(secondId).not.toBe(visitId);
    const second = await visitRow(secondId);
    expect(second?.patient_id).toBe(visit?.patient_id);
    expect(second?.title).toBe("Sample visit: tooth pain");
  });

  it("refuses with the plan's code, and leaves no empty visit behind, once the trial has ended", async () => {
    const orgId = await createOrg(h.db, [{ userId: h.a.users.staff.id, role: "staff" }]);
    await sql`update public.organizations set trial_ends_at = ${"2026-03-01T00:00:00Z"}::timestamptz where id = ${orgId}`.execute(
      h.db.kysely,
    );
    const res = await trySample("staff", orgId);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ sampleError: "trial_ended" });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.visits where org_id = ${orgId}`.execute(
      h.db.kysely,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("refuses an admin (no clinical data) with 403 forbidden_role", async () => {
    const res = await trySample("admin");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ sampleError: "forbidden_role" });
  });

  // The whole pipeline once (decoding a minute of audio is CPU-bound; the database makes no
  // difference to the engine): the real pocketsphinx engine transcribes the sample.
  it.runIf(target.name === "pglite")(
    "the real engine transcribes the sample close to the team's script",
    { timeout: DECODE_TIMEOUT_MS },
    async () => {
      vi.useRealTimers();
      const { visitId } = await startSampleVisit({
        db: h.db,
        actor: { userId: h.a.users.owner.id },
        orgId: h.a.orgId,
        store: h.store,
        patientName: "Sample patient (Murmur)",
        title: "Sample visit",
      });
      const transcribe = createTranscribePort(createSpeechRegistry(parseSpeechEnv({})));
      const outcome = await handleTranscribeVisit(
        { id: "test", data: { orgId: h.a.orgId, visitId } },
        { db: h.db, store: h.store, transcribe },
      );
      expect(outcome).toBe("transcribed");
      const { rows } = await sql<{ text: string }>`
        select text from public.transcriptions where visit_id = ${visitId} and source = 'engine'`.execute(h.db.kysely);
      const script = parseDialogue(
        readFileSync(new URL("../../app/services/onboarding/sample-visit/dialogue.en.txt", import.meta.url), "utf8"),
      );
      const reference = script.map((turn) => turn.text).join(" ");
      expect(wer(reference, rows[0]?.text ?? "")).toBeLessThanOrEqual(SAMPLE_MAX_WER);
      expect(rows[0]?.text).toContain("ibuprofen");
    },
  );
});
