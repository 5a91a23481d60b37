// ACI-Bench encounters as the records Ask Murmur reads (issue 28 bench): each encounter is a visit
// with its dialogue as the imported transcript and its reference note as the visit's signed note,
// split into sections by its upper-case headings. Questions are generated from the note, never
// hand-written, with the key fact an answer must hold. Shared by bench/rag/run.ts only.
import type { AciEncounter } from "../notes/aci-data.ts";

export interface NoteSection {
  key: string;
  title: string;
  text: string;
}

/** ACI headings → template section keys (SECTION_KINDS); anything else keeps a slug of its title. */
const KEYS: Record<string, string> = {
  "CHIEF COMPLAINT": "chief_complaint",
  "HISTORY OF PRESENT ILLNESS": "hpi",
  "REVIEW OF SYSTEMS": "ros",
  "PHYSICAL EXAM": "exam",
  "PHYSICAL EXAMINATION": "exam",
  EXAM: "exam",
  RESULTS: "results",
  PLAN: "plan",
  "ASSESSMENT AND PLAN": "assessment_plan",
  ASSESSMENT: "assessment",
  IMPRESSION: "assessment",
  MEDICATIONS: "medications",
  "CURRENT MEDICATIONS": "medications",
  ALLERGIES: "allergies",
  VITALS: "vitals",
  "VITALS REVIEWED": "vitals",
  INSTRUCTIONS: "patient_instructions",
};

export function noteSections(note: string): NoteSection[] {
  const out: NoteSection[] = [];
  let current: NoteSection | null = null;
  const used = new Set<string>();
  for (const line of note.split("\n")) {
    const heading = line.trim();
    if (/^[A-Z][A-Z &/]{2,}$/.test(heading)) {
      let key = KEYS[heading] ?? heading.toLowerCase().replace(/[^a-z]+/g, "_");
      while (used.has(key)) key = `${key}_2`;
      used.add(key);
      current = { key, title: heading, text: "" };
      out.push(current);
    } else if (current && heading) current.text += `${current.text ? "\n" : ""}${heading}`;
  }
  return out.filter((s) => s.text.length > 0);
}

export interface RecordsQuestion {
  encounter: string;
  kind: "plan" | "dose" | "assessment";
  query: string;
  /** What the answer must hold (folded, compared case-insensitively). */
  fact: string;
}

/** Treatments and tests a plan names: the key fact of a plan question is the first one it names. */
const PLAN_TERMS =
  /\b(x-ray|mri|ct scan|ultrasound|echocardiogram|ekg|electrocardiogram|blood work|physical therapy|referral|hemoglobin a1c|stress test|colonoscopy|biopsy|injection|brace|surgery|lisinopril|metformin|prozac|norvasc|ibuprofen|motrin|tylenol|meloxicam|lasix|insulin|prednisone|antibiotics?|amoxicillin|flonase|albuterol|inhaler|zoloft|lipitor|statin|aspirin|nitroglycerin|steroid|cortisone|ice|sling|cast|splint|diet|exercise)\b/i;

const DOSE = /\b([A-Z]?[a-z]{4,})\s+(\d+(?:\.\d+)?)\s*mg\b/;
const NOT_DRUG = new Set(["take", "taking", "with", "from", "about", "continue", "prescribe", "increase", "start"]);

/** A chief complaint as a question says it ("right knee pain"), from the metadata or the note. */
function complaint(e: AciEncounter & { cc?: string }, sections: NoteSection[]): string {
  const cc = (e.cc ?? sections.find((s) => s.key === "chief_complaint")?.text ?? "").trim();
  return cc.replace(/\.$/, "").toLowerCase();
}

const CC_STOP = new Set(["pain", "follow", "visit", "with", "and", "the", "for", "of", "up", "right", "left"]);

/**
 * The part of a plan about the chief complaint: in a problem list ("Right knee pain." then its
 * lines), the block whose heading shares a word with the complaint; a plan without headings whole;
 * "" when a problem list has no block for it (the question would have no one answer).
 */
export function problemBlock(text: string, cc: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const isHeading = (l: string) => /^[A-Z][\w ,'/-]{2,60}\.$/.test(l) && l.split(" ").length <= 6;
  const headings = lines.filter(isHeading);
  if (headings.length < 2) return text;
  const ccWords = cc
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 2 && !CC_STOP.has(w));
  const start = lines.findIndex((l) => isHeading(l) && ccWords.some((w) => l.toLowerCase().includes(w)));
  if (start < 0) return "";
  const next = lines.findIndex((l, i) => i > start && isHeading(l));
  return lines.slice(start, next < 0 ? undefined : next).join("\n");
}

export function questionsOf(e: AciEncounter & { cc?: string }): RecordsQuestion[] {
  const sections = noteSections(e.note);
  const cc = complaint(e, sections);
  const out: RecordsQuestion[] = [];
  const plan = sections.find((s) => s.key === "plan") ?? sections.find((s) => s.key === "assessment_plan");
  const planTerm = plan ? problemBlock(plan.text, cc).match(PLAN_TERMS)?.[0] : undefined;
  if (cc && planTerm) out.push({ encounter: e.id, kind: "plan", query: `What is the plan for the ${cc}?`, fact: planTerm });
  for (const s of sections) {
    const m = s.text.match(DOSE);
    const drug = m?.[1]?.toLowerCase();
    if (m && drug && !NOT_DRUG.has(drug)) {
      out.push({ encounter: e.id, kind: "dose", query: `What dose of ${drug} is the patient on?`, fact: `${m[2]} mg` });
      break;
    }
  }
  const assessment = sections.find((s) => s.key === "assessment") ?? sections.find((s) => s.key === "assessment_plan");
  // The first problem named on a line of its own ("Depression.", "Right knee pain."), not the summary sentence.
  const problem = assessment?.text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => /^[A-Z][\w ,'-]{2,60}\.$/.test(l) && l.split(" ").length <= 6);
  if (cc && problem)
    out.push({
      encounter: e.id,
      kind: "assessment",
      query: `What is the assessment of the ${cc}?`,
      fact: problem.replace(/\.$/, ""),
    });
  return out;
}
