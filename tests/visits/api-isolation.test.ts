import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as patientPerioRoute from "#app/routes/resources/api-patient-perio-exams.ts";
import * as patientsRoute from "#app/routes/resources/api-patients.ts";
import * as perioRoute from "#app/routes/resources/api-perio-exam.ts";
import * as perioCompareRoute from "#app/routes/resources/api-perio-exam-compare.ts";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as audioRoute from "#app/routes/resources/api-visit-audio.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import * as finishRoute from "#app/routes/resources/api-visit-audio-finish.ts";
import * as transcriptRoute from "#app/routes/resources/api-visit-transcript.ts";
import * as visitsRoute from "#app/routes/resources/api-visits.ts";
import type { RouteModule } from "#tests/setup/api.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import {
  bytesOf,
  call,
  openVisitHarness,
  seedPatient,
  seedVisit,
  sha256,
  type VisitHarness,
  type Who,
  webmChunks,
} from "./harness.ts";

// docs/permissions.md "Clinical features": every patients/visits route × {owner, admin,
// clinician, staff of org A, the owner of org B, anonymous}, always with org A's ids. Owners,
// clinicians and staff work; admins get 403 forbidden_role; the other organisation's owner naming
// org A gets 404 org_not_found (and A's ids in their own organisation 404 too, tested below);
// anonymous callers 401. Each case gets fresh rows, so an allowed mutation cannot hide a refusal.

const WHO: Who[] = ["owner", "admin", "clinician", "staff", "outsider", "anonymous"];

interface World {
  patientId: string;
  visitId: string;
  /** A visit with chunk 0 stored, ready to finish. */
  recordingId: string;
  /** A periodontal exam of the patient (issue 14), at version 1. */
  examId: string;
}

interface Case {
  name: string;
  module: RouteModule;
  method: string;
  path: (w: World) => string;
  params: (w: World) => Record<string, string>;
  json?: (w: World) => unknown;
  body?: () => Uint8Array;
  headers?: () => Record<string, string>;
  ok: number;
}

const chunk = bytesOf(64, 9);
const wav = (() => {
  const b = bytesOf(256, 3);
  b.set(Buffer.from("RIFF"), 0);
  b.set(Buffer.from("WAVE"), 8);
  return b;
})();

const CASES: Case[] = [
  {
    name: "GET /api/patients",
    module: patientsRoute,
    method: "GET",
    path: () => "/api/patients?q=a",
    params: () => ({}),
    ok: 200,
  },
  {
    name: "POST /api/patients",
    module: patientsRoute,
    method: "POST",
    path: () => "/api/patients",
    params: () => ({}),
    json: () => ({ display_name: "Ana Ruiz" }),
    ok: 201,
  },
  { name: "GET /api/visits", module: visitsRoute, method: "GET", path: () => "/api/visits", params: () => ({}), ok: 200 },
  {
    name: "POST /api/visits",
    module: visitsRoute,
    method: "POST",
    path: () => "/api/visits",
    params: () => ({}),
    json: (w) => ({ patient_id: w.patientId, title: "Check-up", language: "en", consent: true }),
    ok: 201,
  },
  {
    name: "GET /api/visits/:id",
    module: visitRoute,
    method: "GET",
    path: (w) => `/api/visits/${w.visitId}`,
    params: (w) => ({ id: w.visitId }),
    ok: 200,
  },
  {
    name: "DELETE /api/visits/:id",
    module: visitRoute,
    method: "DELETE",
    path: (w) => `/api/visits/${w.visitId}`,
    params: (w) => ({ id: w.visitId }),
    ok: 204,
  },
  {
    name: "PUT /api/visits/:id/audio/chunks/:seq",
    module: chunkRoute,
    method: "PUT",
    path: (w) => `/api/visits/${w.visitId}/audio/chunks/0`,
    params: (w) => ({ id: w.visitId, seq: "0" }),
    body: () => chunk,
    headers: () => ({ "x-chunk-sha256": sha256(chunk) }),
    ok: 200,
  },
  {
    name: "POST /api/visits/:id/audio/finish",
    module: finishRoute,
    method: "POST",
    path: (w) => `/api/visits/${w.recordingId}/audio/finish`,
    params: (w) => ({ id: w.recordingId }),
    json: () => ({ chunks: 1 }),
    ok: 200,
  },
  {
    name: "POST /api/visits/:id/audio",
    module: audioRoute,
    method: "POST",
    path: (w) => `/api/visits/${w.visitId}/audio`,
    params: (w) => ({ id: w.visitId }),
    body: () => wav,
    headers: () => ({ "content-type": "audio/wav" }),
    ok: 200,
  },
  {
    name: "POST /api/visits/:id/transcript",
    module: transcriptRoute,
    method: "POST",
    path: (w) => `/api/visits/${w.visitId}/transcript`,
    params: (w) => ({ id: w.visitId }),
    json: () => ({ text: "Patient reports a toothache." }),
    ok: 201,
  },
  // Issue 14: the periodontal chart (owners, clinicians and staff, like patients and visits).
  {
    name: "GET /api/patients/:id/perio-exams",
    module: patientPerioRoute,
    method: "GET",
    path: (w) => `/api/patients/${w.patientId}/perio-exams`,
    params: (w) => ({ id: w.patientId }),
    ok: 200,
  },
  {
    name: "POST /api/patients/:id/perio-exams",
    module: patientPerioRoute,
    method: "POST",
    path: (w) => `/api/patients/${w.patientId}/perio-exams`,
    params: (w) => ({ id: w.patientId }),
    json: () => ({ copy_from: "latest" }),
    ok: 201,
  },
  {
    name: "GET /api/perio-exams/:id",
    module: perioRoute,
    method: "GET",
    path: (w) => `/api/perio-exams/${w.examId}`,
    params: (w) => ({ id: w.examId }),
    ok: 200,
  },
  {
    name: "PATCH /api/perio-exams/:id",
    module: perioRoute,
    method: "PATCH",
    path: (w) => `/api/perio-exams/${w.examId}`,
    params: (w) => ({ id: w.examId }),
    json: () => ({ version: 1, changes: [{ tooth: 3, site: "MB", field: "pd", value: 4 }] }),
    ok: 200,
  },
  {
    name: "GET /api/perio-exams/:id/compare",
    module: perioCompareRoute,
    method: "GET",
    path: (w) => `/api/perio-exams/${w.examId}/compare?with=${w.examId}`,
    params: (w) => ({ id: w.examId }),
    ok: 200,
  },
];

function expected(ok: number, who: Who): number {
  if (who === "anonymous") return 401;
  if (who === "outsider") return 404;
  if (who === "admin") return 403;
  return ok;
}

describeEachDatabase("patients and visits API isolation", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  async function world(): Promise<World> {
    const patientId = await seedPatient(h);
    const visitId = await seedVisit(h, { patientId });
    const recordingId = await seedVisit(h, { patientId });
    const [first] = webmChunks(1, 64);
    await call(h, chunkRoute, {
      method: "PUT",
      path: `/api/visits/${recordingId}/audio/chunks/0`,
      params: { id: recordingId, seq: "0" },
      body: first,
      headers: { "x-chunk-sha256": sha256(first as Uint8Array) },
    });
    const { rows } = await sql<{ id: string }>`
      insert into public.perio_exams (org_id, patient_id, exam_date, data)
      values (${h.a.orgId}, ${patientId}, '2026-01-05', '{"teeth":{}}') returning id`.execute(h.db.kysely);
    return { patientId, visitId, recordingId, examId: rows[0]?.id ?? "" };
  }

  for (const c of CASES) {
    it(`${c.name}: owner/clinician/staff ${c.ok}, admin 403, other organisation 404, anonymous 401`, async () => {
      const statuses: Record<string, number> = {};
      const codes: Record<string, string | undefined> = {};
      for (const who of WHO) {
        const w = await world();
        const res = await call(h, c.module, {
          method: c.method,
          path: c.path(w),
          params: c.params(w),
          json: c.json?.(w),
          body: c.body?.(),
          headers: c.headers?.(),
          as: who,
          orgId: h.a.orgId,
        });
        statuses[who] = res.status;
        codes[who] = res.body?.code;
      }
      expect(statuses).toEqual(Object.fromEntries(WHO.map((who) => [who, expected(c.ok, who)])));
      expect(codes.admin).toBe("forbidden_role");
      expect(codes.anonymous).toBe("not_authenticated");
      expect(codes.outsider).toBe("org_not_found");
    });
  }

  it("a member of B naming org A in x-org-id is 404 org_not_found; without x-org-id 400 org_required", async () => {
    const w = await world();
    const asB = await call(h, visitRoute, {
      method: "GET",
      path: `/api/visits/${w.visitId}`,
      params: { id: w.visitId },
      as: "outsider",
      orgId: h.a.orgId,
    });
    expect(asB).toMatchObject({ status: 404, body: { code: "org_not_found" } });
    const none = await call(h, patientsRoute, { method: "GET", path: "/api/patients", orgId: null });
    expect(none).toMatchObject({ status: 400, body: { code: "org_required" } });
  });

  it("B's owner never sees A's patients or visits in lists, nor by id in their own organisation", async () => {
    const w = await world();
    for (const c of CASES.filter(
      (k) => k.path(w).includes(w.visitId) || k.path(w).includes(w.recordingId) || k.path(w).includes(w.examId),
    )) {
      const res = await call(h, c.module, {
        method: c.method,
        path: c.path(w),
        params: c.params(w),
        json: c.json?.(w),
        body: c.body?.(),
        headers: c.headers?.(),
        as: "outsider",
      });
      expect({ route: c.name, status: res.status, code: res.body?.code }).toEqual({
        route: c.name,
        status: 404,
        code: c.path(w).includes(w.examId) ? "perio_exam_not_found" : "visit_not_found",
      });
    }
    const patients = await call(h, patientsRoute, { method: "GET", path: "/api/patients", as: "outsider" });
    const visits = await call(h, visitsRoute, { method: "GET", path: "/api/visits", as: "outsider" });
    expect(patients).toEqual({ status: 200, body: [] });
    expect(visits).toEqual({ status: 200, body: [] });
    const byPatient = await call(h, visitsRoute, {
      method: "GET",
      path: `/api/visits?patient_id=${w.patientId}`,
      as: "outsider",
    });
    expect(byPatient).toEqual({ status: 200, body: [] });
    const create = await call(h, visitsRoute, {
      method: "POST",
      path: "/api/visits",
      json: { patient_id: w.patientId, language: "en", consent: true },
      as: "outsider",
    });
    expect(create).toMatchObject({ status: 404, body: { code: "patient_not_found" } });
    const { rows } = await sql`select 1 from public.visits where org_id = ${h.b.orgId}`.execute(h.db.kysely);
    expect(rows).toEqual([]);
  });
});
