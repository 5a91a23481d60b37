import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { saveDraft } from "#app/services/notes/notes.server.ts";
import { amendNote, signNote } from "#app/services/notes/sign.server.ts";
import { editTranscript } from "#app/services/visits/transcript-versions.server.ts";
import { createVisit, deleteVisit, getVisit } from "#app/services/visits/visits.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, seedPatient, type VisitHarness } from "#tests/visits/harness.ts";
import { generatedNote, SEGMENTS_EN, transcribedVisit } from "../notes/notes-harness.ts";

// 0017_records_index.sql: the index follows every write path in the writer's own transaction
// (triggers), and row-level security hides note rows from staff and admins and every row from
// other organisations before any query can rank them.
describeEachDatabase("records index", (target) => {
  let h: VisitHarness;
  const rows = async (where: { visitId?: string; noteId?: string }) => {
    const { rows } = await sql<{ text: string; field: string; note_status: string | null; start_s: number | null }>`
      select text, field, note_status, start_s from public.record_chunks
      where ${where.noteId ? sql`note_id = ${where.noteId}` : sql`visit_id = ${where.visitId ?? null} and source_table = 'transcriptions'`}
      order by position`.execute(h.db.kysely);
    return rows;
  };
  const as = (role: OrgRole) => ({ db: h.db, actor: { userId: h.a.users[role].id }, orgId: h.a.orgId });

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  it("indexes transcript segments with their seconds, and an edit replaces them", async () => {
    const visitId = await transcribedVisit(h);
    const before = await rows({ visitId });
    expect(before.map((r) => r.text)).toEqual(SEGMENTS_EN.map((s) => s.text));
    expect(before[4]?.start_s).toBeCloseTo(16.4);
    const edited = SEGMENTS_EN.map((s) => s.text.replace("lisinopril 10 mg", "losartan 50 mg"));
    await editTranscript({ ...as("staff"), visitId, edit: { baseVersion: 1, segments: edited } });
    const after = await rows({ visitId });
    expect(after.some((r) => r.text.includes("losartan 50 mg"))).toBe(true);
    expect(after.some((r) => r.text.includes("lisinopril"))).toBe(false);
  });

  it("indexes a note's sentences as draft, then signed, then amended; a deleted visit takes its rows", async () => {
    const { noteId, visitId } = await generatedNote(h, createExtractiveEngine());
    const draft = await rows({ noteId });
    expect(draft.length).toBeGreaterThan(0);
    expect(new Set(draft.map((r) => r.note_status))).toEqual(new Set(["draft"]));
    const key = draft[0]?.field ?? "";
    await saveDraft({ ...as("clinician"), noteId, sections: [{ key, text: "Started furosemide 20 mg daily." }] });
    expect((await rows({ noteId })).some((r) => r.text === "Started furosemide 20 mg daily.")).toBe(true);
    await signNote({ ...as("clinician"), noteId });
    expect(new Set((await rows({ noteId })).map((r) => r.note_status))).toEqual(new Set(["signed"]));
    await amendNote({ ...as("owner"), noteId, reason: "dose", sections: [{ key, text: "Started furosemide 40 mg daily." }] });
    const amended = await rows({ noteId });
    expect(amended.some((r) => r.text === "Started furosemide 40 mg daily." && r.note_status === "amended")).toBe(true);
    expect(amended.some((r) => r.text.includes("20 mg"))).toBe(false);

    const other = await transcribedVisit(h);
    expect((await rows({ visitId: other })).length).toBeGreaterThan(0);
    await deleteVisit({ ...as("clinician"), visitId: other, store: h.store });
    expect(await rows({ visitId: other })).toEqual([]);
    expect((await rows({ visitId })).length).toBeGreaterThan(0);
  });

  it("filters by organisation and role before anything is ranked: staff see no note rows, admins nothing", async () => {
    const visitB = await transcribedVisit(h, { orgId: h.b.orgId });
    const visible = (userId: string, orgId: string) =>
      withActor(h.db, { userId, orgId }, async (trx) => {
        const { rows } = await sql<{ record_type: string; org_id: string; n: number }>`
          select record_type, org_id, count(*)::int as n from public.record_chunks group by 1, 2`.execute(trx);
        return rows;
      });
    const clinician = await visible(h.a.users.clinician.id, h.a.orgId);
    expect(new Set(clinician.map((r) => r.record_type))).toEqual(new Set(["transcription", "doctor_note"]));
    expect(clinician.every((r) => r.org_id === h.a.orgId)).toBe(true);
    const staff = await visible(h.a.users.staff.id, h.a.orgId);
    expect(staff.map((r) => r.record_type)).toEqual(["transcription"]);
    expect(await visible(h.a.users.admin.id, h.a.orgId)).toEqual([]);
    // A member of A naming B's organisation sees none of B's rows.
    expect(await visible(h.a.users.owner.id, h.b.orgId)).toEqual([]);
    expect((await visible(h.b.owner.id, h.b.orgId)).map((r) => r.n)).toEqual([SEGMENTS_EN.length]);
    expect(visitB).toBeTruthy();
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) =>
        sql`delete from public.record_chunks`.execute(trx),
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("visit_date: defaults to today in the organisation's zone, accepts a past day, refuses a future or unreal one", async () => {
    await sql`update public.organizations set timezone = 'Pacific/Auckland' where id = ${h.a.orgId}`.execute(h.db.kysely);
    const patientId = await seedPatient(h);
    const now = new Date("2026-03-10T20:00:00Z"); // already 11 March in Auckland
    const base = { ...as("staff"), patientId, title: "", language: "en" as const, consent: true, now };
    const today = await createVisit(base);
    expect((await getVisit({ ...as("staff"), visitId: today.id })).visit_date).toBe("2026-03-11");
    const past = await createVisit({ ...base, visitDate: "2025-12-01" });
    expect((await getVisit({ ...as("staff"), visitId: past.id })).visit_date).toBe("2025-12-01");
    await expect(Promise.resolve().then(() => createVisit({ ...base, visitDate: "2026-03-12" }))).rejects.toMatchObject({
      code: "visit_date_in_future",
    });
    await expect(Promise.resolve().then(() => createVisit({ ...base, visitDate: "2025-02-30" }))).rejects.toMatchObject({
      code: "invalid_visit_date",
    });
    await sql`update public.visits set visit_date = '2024-01-02' where id = ${past.id}`.execute(h.db.kysely);
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
      values (${h.a.orgId}, ${past.id}, 1, 'import', 'import', 'en', 'Knee X-ray was normal. No fracture.')`.execute(h.db.kysely);
    const { rows: dates } = await sql<{
      d: string;
    }>`select visit_date::text as d from public.record_chunks where visit_id = ${past.id}`.execute(h.db.kysely);
    expect(dates.map((r) => r.d)).toEqual(["2024-01-02", "2024-01-02"]);
  });
});
