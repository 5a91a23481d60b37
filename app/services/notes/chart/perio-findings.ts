import type { Classification, Extent, Grade, RiskFactors, Stage } from "#app/services/perio/classification.ts";
import { classify, stageName } from "#app/services/perio/classification.ts";
import { calOf, getTooth, type PerioChartData } from "#app/services/perio/model.ts";
import { summarize } from "#app/services/perio/summary.ts";
import { type Numbering, SITES, type Site, toothLabel, UNIVERSAL_TEETH } from "#app/services/perio/teeth.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import type { ChartEvidence, NoteLanguage, NoteSentence } from "../model.ts";
import { joinList, PERIO_PHRASES } from "./perio-phrases.ts";

// The visit's periodontal chart as note sentences (issue 14: "the note engine reads the chart
// instead of guessing from the transcript when an exam exists for the visit"). Pure and
// isomorphic: the generate-note job loads the exam, this turns it into sentences whose evidence
// is the chart (exam id and the teeth/sites each sentence reports), never a transcript quote.

/** The clinician's confirmed or overridden classification as stored on the exam (exams.server.ts). */
export type ConfirmedPerio = { stage: Stage | null; extent: Extent | null; grade: Grade | null; overridden?: boolean };

export type ChartExam = {
  id: string;
  patient_id: string;
  /** YYYY-MM-DD. */
  exam_date: string;
  data: PerioChartData;
  risk: RiskFactors;
  confirmed: ConfirmedPerio | null;
};

export type PerioFindings = {
  /** Teeth present, probing, attachment, bleeding, deepest sites, mobility, furcation. */
  charting: NoteSentence[];
  /** Plaque and calculus. */
  hygiene: NoteSentence[];
  /** The confirmed stage/extent/grade, else the proposal; empty when the chart cannot tell. */
  diagnosis: NoteSentence[];
};

/** How many deepest sites the note lists (the chart has them all; the note keeps the worst). */
const DEEPEST_LIMIT = 6;
/** Sites this deep or deeper are listed by name. */
const DEEPEST_FROM = 5;

type SiteRef = { tooth: number; site?: Site };

export function perioFindings(exam: ChartExam, language: NoteLanguage, numbering: Numbering): PerioFindings | null {
  const summary = summarize(exam.data);
  // An exam opened but not yet probed says nothing: the note falls back to what was said.
  if (summary.sitesMeasured === 0) return null;
  const p = PERIO_PHRASES[language];
  const label = (tooth: number) => toothLabel(tooth, numbering);
  const sentence = (text: string, sites: SiteRef[] = []): NoteSentence => {
    const chart: ChartEvidence = {
      kind: "perio_exam",
      exam_id: exam.id,
      patient_id: exam.patient_id,
      exam_date: exam.exam_date,
      sites: sites.map((s) => (s.site ? { tooth: s.tooth, site: s.site } : { tooth: s.tooth })),
    };
    return { text, evidence: [], supported: true, source: "chart", chart };
  };

  const charting: NoteSentence[] = [];
  charting.push(sentence(p.chartOf(formatCalendarDate(exam.exam_date, language, "long"))));
  const missing = UNIVERSAL_TEETH.filter((t) => getTooth(exam.data, t).missing);
  charting.push(sentence(`${p.teethPresent(summary.teethPresent, summary.implants)}`));
  if (missing.length)
    charting.push(
      sentence(
        p.missing(joinList(language, missing.map(label))),
        missing.map((tooth) => ({ tooth })),
      ),
    );
  charting.push(
    sentence(
      p.probing({
        mean: summary.meanPd ?? 0,
        max: summary.maxPd ?? 0,
        measured: summary.sitesMeasured,
        pd4: summary.pd4,
        pd5: summary.pd5,
        pd6: summary.pd6,
      }),
    ),
  );
  if (summary.meanCal !== null && summary.maxCal !== null) charting.push(sentence(p.attachment(summary.meanCal, summary.maxCal)));
  charting.push(sentence(p.bleeding(summary.bopSites, summary.teethPresent * SITES.length, summary.bopPercent ?? 0)));

  const present = UNIVERSAL_TEETH.filter((t) => !getTooth(exam.data, t).missing);
  const siteName = (s: SiteRef) => `${label(s.tooth)} ${s.site ? p.site[s.site] : ""}`.trim();

  const deep: (SiteRef & { pd: number; cal: number | null })[] = [];
  const suppuration: SiteRef[] = [];
  for (const tooth of present) {
    for (const site of SITES) {
      const rec = getTooth(exam.data, tooth).sites[site];
      if (rec.suppuration) suppuration.push({ tooth, site });
      if (rec.pd !== null && rec.pd >= DEEPEST_FROM) deep.push({ tooth, site, pd: rec.pd, cal: calOf(rec) });
    }
  }
  // Deepest first; ties in chart order (tooth then site), so the same chart gives the same note.
  deep.sort((a, b) => b.pd - a.pd);
  const worst = deep.slice(0, DEEPEST_LIMIT);
  if (worst.length) charting.push(sentence(p.deepest(worst.map((d) => `${siteName(d)} ${p.mm(d.pd)}`).join(", ")), worst));
  if (suppuration.length)
    charting.push(sentence(p.suppuration(suppuration.length, suppuration.map(siteName).join(", ")), suppuration));

  const mobile = present.filter((t) => (getTooth(exam.data, t).mobility ?? 0) > 0);
  if (mobile.length)
    charting.push(
      sentence(
        p.mobility(mobile.map((t) => `${label(t)} (${p.mobilityGrade(getTooth(exam.data, t).mobility ?? 0)})`).join(", ")),
        mobile.map((tooth) => ({ tooth })),
      ),
    );
  const furcations: (SiteRef & { grade: number })[] = [];
  for (const tooth of present)
    for (const [site, grade] of Object.entries(getTooth(exam.data, tooth).furcation))
      if (grade) furcations.push({ tooth, site: site as Site, grade });
  if (furcations.length)
    charting.push(sentence(p.furcation(furcations.map((f) => `${siteName(f)} (${p.grade(f.grade)})`).join(", ")), furcations));

  const hygiene: NoteSentence[] = [];
  const allSites = summary.teethPresent * SITES.length;
  if (summary.plaqueSites > 0) hygiene.push(sentence(p.plaque(summary.plaqueSites, allSites, summary.plaquePercent ?? 0)));
  const calculus = present.reduce((n, t) => n + SITES.filter((s) => getTooth(exam.data, t).sites[s].calculus).length, 0);
  if (calculus > 0) hygiene.push(sentence(p.calculus(calculus)));

  return {
    charting,
    hygiene,
    diagnosis: diagnosisSentences(exam, classify(exam.data, exam.risk), language).map((t) => sentence(t)),
  };
}

/** The clinician's confirmation wins over the proposal (issue 14: "confirms or overrides (kept, audited)"). */
function diagnosisSentences(exam: ChartExam, proposed: Classification, language: NoteLanguage): string[] {
  const p = PERIO_PHRASES[language];
  const confirmed = exam.confirmed;
  if (confirmed?.stage) {
    const extent = confirmed.extent ? p.extent[confirmed.extent] : null;
    return [`${p.diagnosis(stageName(confirmed.stage), extent, confirmed.grade)} (${p.confirmed}).`];
  }
  if (proposed.periodontitis === false) return [p.noPeriodontitis];
  if (!proposed.stage) return [];
  const extent = proposed.extent ? p.extent[proposed.extent] : null;
  return [`${p.diagnosis(stageName(proposed.stage), extent, proposed.grade)} (${p.proposed}).`];
}
