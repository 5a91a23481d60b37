import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as noteRoute from "#app/routes/resources/api-note.ts";
import * as examsRoute from "#app/routes/resources/api-patient-perio-exams.ts";
import * as examRoute from "#app/routes/resources/api-perio-exam.ts";
import { applyChartFindings } from "#app/services/notes/chart/apply-chart.ts";
import { perioFindings } from "#app/services/notes/chart/perio-findings.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import type { NoteSectionDraft, NoteSentence, NoteTemplate } from "#app/services/notes/model.ts";
import { emptyChart } from "#app/services/perio/model.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";
import { generatedNote, patientOf, transcribedVisit } from "./notes-harness.ts";

// Issue 14: "the chart's findings feed the built-in periodontal-exam note template (the note engine
// reads the chart instead of guessing from the transcript when an exam exists for the visit)".
// An exam belongs to a visit when it is the patient's exam dated the visit's day in the
// organisation's time zone (ADR 0030). The dictation below says other numbers than the chart on
// purpose: the note must carry the chart's.

const DICTATION_EN = [
  "[doctor] Let's look at your gums today.",
  "[doctor] Pocket depths are about four millimetres on tooth three, there is some bleeding.",
  "[doctor] I would call this stage two periodontitis, localised, grade A.",
  "[doctor] We will do scaling and root planing of the upper right quadrant and see you in six weeks.",
].join("\n");

const DICTATION_FR = [
  "[doctor] On regarde vos gencives aujourd'hui.",
  "[doctor] Les poches font environ quatre millimètres sur la seize, avec un peu de saignement.",
  "[doctor] C'est une parodontite stade deux, localisée.",
  "[doctor] On fera un détartrage surfaçage du quadrant supérieur droit et on se revoit dans six semaines.",
].join("\n");

type Change = { tooth: number; site?: string; field: string; value: unknown };

/** A stage III chart: interdental CAL 7 mm on 3, 14, 19, 30 (non-adjacent), tooth 1 missing, 24 mobile. */
const CHART_CHANGES: Change[] = [
  { tooth: 1, field: "missing", value: true },
  { tooth: 24, field: "mobility", value: 2 },
  { tooth: 3, site: "B", field: "furcation", value: 2 },
  ...[3, 14, 19, 30].flatMap((tooth): Change[] => [
    { tooth, site: "MB", field: "pd", value: 6 },
    { tooth, site: "MB", field: "gm", value: 1 },
    { tooth, site: "MB", field: "bop", value: true },
    { tooth, site: "B", field: "pd", value: 3 },
    { tooth, site: "B", field: "gm", value: 0 },
  ]),
  { tooth: 30, site: "DL", field: "pd", value: 7 },
  { tooth: 30, site: "DL", field: "gm", value: 1 },
  { tooth: 30, site: "MB", field: "suppuration", value: true },
  { tooth: 8, site: "B", field: "plaque", value: true },
  { tooth: 9, site: "B", field: "plaque", value: true },
  { tooth: 9, site: "B", field: "calculus", value: true },
];

describeEachDatabase("periodontal chart in the note", (target) => {
  let h: VisitHarness;
  const engine = createExtractiveEngine();

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  /** The visit's day where the organisation is, as the job computes it. */
  async function visitDay(visitId: string): Promise<string> {
    const { rows } = await sql<{ day: string }>`
      select to_char(v.created_at at time zone o.timezone, 'YYYY-MM-DD') as day
      from public.visits v join public.organizations o on o.id = v.org_id where v.id = ${visitId}`.execute(h.db.kysely);
    return rows[0]?.day ?? "";
  }

  async function chartedExam(patientId: string, examDate: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await call(h, examsRoute, {
      method: "POST",
      path: `/api/patients/${patientId}/perio-exams`,
      params: { id: patientId },
      json: { exam_date: examDate },
      as: "staff",
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const saved = await call(h, examRoute, {
      method: "PATCH",
      path: `/api/perio-exams/${id}`,
      params: { id },
      json: { version: 1, changes: CHART_CHANGES, ...extra },
      as: "staff",
    });
    expect(saved.status).toBe(200);
    return id;
  }

  const getNote = async (noteId: string) =>
    (await call(h, noteRoute, { method: "GET", path: `/api/notes/${noteId}`, params: { id: noteId }, as: "clinician" })).body;
  const sectionOf = (note: { sections: NoteSectionDraft[] }, key: string) =>
    note.sections.find((s) => s.key === key) as NoteSectionDraft;

  it("fills the charting, hygiene and diagnosis sections from the visit's chart, evidence pointing at the exam", async () => {
    const visitId = await transcribedVisit(h, { text: DICTATION_EN });
    const patientId = await patientOf(h, visitId);
    const examId = await chartedExam(patientId, await visitDay(visitId));
    const { noteId } = await generatedNote(h, engine, { visitId, templateId: "builtin:periodontal_exam" });
    const note = await getNote(noteId);

    const charting = sectionOf(note, "charting");
    expect(charting.sentences.length).toBeGreaterThan(4);
    for (const s of charting.sentences as NoteSentence[]) {
      expect(s).toMatchObject({ source: "chart", supported: true, evidence: [] });
      expect(s.chart).toMatchObject({ kind: "perio_exam", exam_id: examId, patient_id: patientId });
    }
    // Org A is a US practice: Universal numbering. 31 teeth, 4 MB sites + 30 DL ≥ 5 mm.
    expect(charting.text).toContain("- 31 teeth present.");
    expect(charting.text).toContain("Missing: 1.");
    expect(charting.text).toMatch(
      /Probing depths: mean 4\.8 mm, deepest 7 mm; 5 sites ≥ 4 mm, 5 ≥ 5 mm, 5 ≥ 6 mm \(9 sites probed\)\./,
    );
    expect(charting.text).toContain("Clinical attachment level: mean 5.3 mm, greatest 8 mm.");
    expect(charting.text).toContain("Bleeding on probing at 4 of 186 sites (2.2%).");
    expect(charting.text).toContain("Deepest sites: 30 DL 7 mm, 3 MB 6 mm, 14 MB 6 mm, 19 MB 6 mm, 30 MB 6 mm.");
    expect(charting.text).toContain("Suppuration at 1 site: 30 MB.");
    expect(charting.text).toContain("Mobility: 24 (grade 2).");
    expect(charting.text).toContain("Furcation involvement: 3 B (grade II).");
    // The deepest-sites sentence names its sites, so the editor can point at them on the chart.
    const deepest = (charting.sentences as NoteSentence[]).find((s) => s.text.startsWith("Deepest"));
    expect(deepest?.chart?.sites).toEqual([
      { tooth: 30, site: "DL" },
      { tooth: 3, site: "MB" },
      { tooth: 14, site: "MB" },
      { tooth: 19, site: "MB" },
      { tooth: 30, site: "MB" },
    ]);
    // The dictated "four millimetres" is not what the note says about probing.
    expect(charting.text).not.toMatch(/four/i);

    expect(sectionOf(note, "hygiene").text).toBe("Plaque at 2 of 186 sites (1.1%). Calculus at 1 site.");
    const diagnosis = sectionOf(note, "diagnosis");
    expect(diagnosis.text).toBe(
      // Mobility 2 makes it stage IV; the four molars involved, the molar–incisor pattern.
      "Periodontitis stage IV, molar–incisor pattern, grade B (proposed from the chart by the 2017 AAP/EFP classification, to be confirmed).",
    );
    expect(diagnosis.text).not.toMatch(/stage two|localised/i);
    expect(diagnosis.sentences[0]?.source).toBe("chart");
    // Sections the chart says nothing about keep what was said (the plan).
    const plan = sectionOf(note, "plan");
    expect(plan.text).toMatch(/scaling and root planing/i);
    expect(plan.sentences.every((s) => s.source !== "chart")).toBe(true);
  });

  it("writes the clinician's confirmed classification, in French with FDI numbering for a practice outside the US", async () => {
    await sql`update public.organizations set region = 'fr' where id = ${h.a.orgId}`.execute(h.db.kysely);
    try {
      const visitId = await transcribedVisit(h, { text: DICTATION_FR, language: "fr" });
      const patientId = await patientOf(h, visitId);
      await chartedExam(patientId, await visitDay(visitId), {
        confirmed: { stage: 4, extent: "generalised", grade: "C" },
      });
      const { noteId } = await generatedNote(h, engine, { visitId, templateId: "builtin:periodontal_exam" });
      const note = await getNote(noteId);
      const charting = sectionOf(note, "charting").text;
      expect(charting).toContain("31 dents présentes.");
      expect(charting).toContain("Absentes : 18.");
      expect(charting).toContain("Profondeurs de sondage : moyenne 4,8 mm, maximum 7 mm");
      expect(charting).toContain("Saignement au sondage sur 4 sites sur 186 (2,2 %).");
      // FDI: 30 is 46, 3 is 16, 24 is 31; French site names (MV = mesio-vestibular).
      expect(charting).toContain("Sites les plus profonds : 46 DL 7 mm, 16 MV 6 mm");
      expect(charting).toContain("Mobilité : 31 (degré 2).");
      expect(charting).toContain("Atteintes de furcation : 16 V (classe II).");
      expect(sectionOf(note, "diagnosis").text).toBe(
        "Parodontite stade IV, généralisée, grade C (confirmé par le praticien sur le charting).",
      );
    } finally {
      await sql`update public.organizations set region = 'us' where id = ${h.a.orgId}`.execute(h.db.kysely);
    }
  });

  it("matches the exam by the visit's day in the organisation's time zone, not the server's", async () => {
    await sql`update public.organizations set timezone = 'Pacific/Auckland' where id = ${h.a.orgId}`.execute(h.db.kysely);
    try {
      const visitId = await transcribedVisit(h, { text: DICTATION_EN });
      // 20:00 UTC on 1 March is 09:00 on 2 March in Auckland (NZDT, UTC+13).
      await sql`update public.visits set created_at = '2026-03-01T20:00:00Z' where id = ${visitId}`.execute(h.db.kysely);
      const patientId = await patientOf(h, visitId);
      await chartedExam(patientId, "2026-03-01"); // the UTC day: not the visit's
      const elsewhere = await generatedNote(h, engine, { visitId, templateId: "builtin:periodontal_exam" });
      const before = await getNote(elsewhere.noteId);
      expect(before.sections.flatMap((s: NoteSectionDraft) => s.sentences).some((s: NoteSentence) => s.source === "chart")).toBe(
        false,
      );
      const examId = await chartedExam(patientId, "2026-03-02");
      const matched = await generatedNote(h, engine, { visitId, templateId: "builtin:periodontal_exam" });
      const charting = sectionOf(await getNote(matched.noteId), "charting");
      expect(charting.sentences[0]?.chart?.exam_id).toBe(examId);
      expect(charting.text).toContain("Findings from the periodontal chart of March 2, 2026.");
    } finally {
      await sql`update public.organizations set timezone = 'UTC' where id = ${h.a.orgId}`.execute(h.db.kysely);
    }
  });

  it("leaves other templates and unprobed exams to the transcript, and keeps chart evidence through an edit", async () => {
    const visitId = await transcribedVisit(h, { text: DICTATION_EN });
    const patientId = await patientOf(h, visitId);
    const day = await visitDay(visitId);
    // An exam opened but not probed says nothing.
    await call(h, examsRoute, {
      method: "POST",
      path: `/api/patients/${patientId}/perio-exams`,
      params: { id: patientId },
      json: { exam_date: day },
      as: "staff",
    });
    const blank = await getNote((await generatedNote(h, engine, { visitId, templateId: "builtin:periodontal_exam" })).noteId);
    expect(blank.sections.flatMap((s: NoteSectionDraft) => s.sentences).some((s: NoteSentence) => s.source === "chart")).toBe(
      false,
    );

    await chartedExam(patientId, day);
    const soap = await getNote((await generatedNote(h, engine, { visitId, templateId: "builtin:soap" })).noteId);
    expect(soap.sections.flatMap((s: NoteSectionDraft) => s.sentences).some((s: NoteSentence) => s.source === "chart")).toBe(
      false,
    );

    const { noteId } = await generatedNote(h, engine, { visitId, templateId: "builtin:periodontal_exam" });
    const charting = sectionOf(await getNote(noteId), "charting");
    const edited = `${charting.text}\n- Gingival recession noted on the lower incisors.`;
    const put = await call(h, noteRoute, {
      method: "PUT",
      path: `/api/notes/${noteId}`,
      params: { id: noteId },
      json: { sections: [{ key: "charting", text: edited }], version: (await getNote(noteId)).version },
      as: "clinician",
    });
    expect(put.status).toBe(200);
    const after = sectionOf(await getNote(noteId), "charting").sentences as NoteSentence[];
    expect(after.slice(0, -1).every((s) => s.source === "chart" && s.chart?.patient_id === patientId)).toBe(true);
    expect(after.at(-1)).toMatchObject({ source: "clinician", text: "Gingival recession noted on the lower incisors." });
  });
});

describe("chart sections of other templates", () => {
  const chart = emptyChart();
  const tooth = chart.teeth["3"];
  if (tooth) tooth.sites.MB = { pd: 4, gm: 0, bop: true, suppuration: false, plaque: true, calculus: false };
  const findings = perioFindings(
    { id: "e", patient_id: "p", exam_date: "2026-05-04", data: chart, risk: {}, confirmed: null },
    "es",
    "fdi",
  );

  it("puts plaque with the summary when there is no hygiene section, keeps fixed text first, writes prose as prose", () => {
    if (!findings) throw new Error("findings expected");
    const template: NoteTemplate = {
      id: "custom",
      name: "Perio",
      language: "es",
      sections: [
        {
          key: "perio",
          title: "Periodonto",
          kind: "periodontal",
          fixedText: "Sondaje con sonda PCP-UNC 15.",
          header: "always",
          style: "prose",
          verbosity: "standard",
          persistent: false,
        },
        {
          key: "a",
          title: "Evaluación",
          kind: "assessment",
          header: "always",
          style: "prose",
          verbosity: "standard",
          persistent: false,
        },
      ],
    };
    const draft: NoteSectionDraft[] = [
      {
        key: "perio",
        title: "Periodonto",
        text: "Sondaje con sonda PCP-UNC 15. Bolsas de cuatro.",
        sentences: [
          { text: "Sondaje con sonda PCP-UNC 15.", evidence: [], supported: true, source: "template" },
          {
            text: "Bolsas de cuatro.",
            evidence: [{ start: 1, end: 2, quote: "bolsas de cuatro" }],
            supported: true,
            source: "transcript",
          },
        ],
      },
      {
        key: "a",
        title: "Evaluación",
        text: "Gingivitis.",
        sentences: [{ text: "Gingivitis.", evidence: [], supported: true, source: "transcript" }],
      },
    ];
    const [perio, assessment] = applyChartFindings(template, draft, findings);
    expect(perio?.text.startsWith("Sondaje con sonda PCP-UNC 15.\nHallazgos del periodontograma del 4 de mayo de 2026.")).toBe(
      true,
    );
    expect(perio?.text).toContain("Sangrado al sondaje en 1 de 192 sitios (0,5 %).");
    expect(perio?.text).toContain("Placa en 1 de 192 sitios (0,5 %).");
    expect(perio?.text).toContain("1 sitio ≥ 4 mm, 0 ≥ 5 mm, 0 ≥ 6 mm (1 sitio sondado).");
    expect(perio?.text).not.toContain("Bolsas de cuatro");
    expect(perio?.text).not.toContain("\n- ");
    // One tooth with interdental CAL 4 is not a case of periodontitis (two non-adjacent teeth needed).
    expect(assessment?.text).toBe(
      "Sin periodontitis según la definición de caso AAP/EFP 2017 (propuesto a partir del periodontograma, pendiente de confirmar).",
    );
  });

  it("gives nothing for a chart without a single probing depth", () => {
    expect(
      perioFindings(
        { id: "e", patient_id: "p", exam_date: "2026-05-04", data: emptyChart(), risk: {}, confirmed: null },
        "en",
        "universal",
      ),
    ).toBeNull();
  });
});
