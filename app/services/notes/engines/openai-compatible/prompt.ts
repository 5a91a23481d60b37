import type {
  NoteContext,
  NoteLanguage,
  SectionKind,
  SectionStyle,
  TemplateSection,
  TranscriptPiece,
  Verbosity,
} from "#app/services/notes/model.ts";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

const LANGUAGE_NAMES: Record<NoteLanguage, string> = { en: "English", fr: "French", es: "Spanish" };

// Titles may be in any language and custom; the kind tells the model what the section is for.
const KIND_MEANINGS: Record<SectionKind, string> = {
  chief_complaint: "the reason for the visit, in the patient's terms",
  hpi: "history of the present illness",
  history: "past medical, surgical, family and social history",
  medications: "current medications with dose and frequency as said",
  allergies: "allergies and reactions",
  ros: "review of systems, including pertinent negatives",
  vitals: "vital signs and measurements with their units",
  exam: "physical examination findings",
  results: "test, laboratory and imaging results",
  assessment: "the clinician's assessment or diagnosis",
  plan: "the plan: tests, treatment, prescriptions, referrals, follow-up",
  assessment_plan: "assessment and plan, problem by problem",
  dental_exam: "dental examination findings by tooth",
  periodontal: "periodontal findings: pocket depths, bleeding, mobility, recession",
  procedure: "the procedure performed: indication, consent, technique, findings, complications",
  referral: "the referral: to whom, why, and the relevant findings",
  patient_instructions: "instructions given to the patient, addressed to the patient",
  other: "as the title and instructions say",
};

const STYLE_RULES: Record<SectionStyle, string> = {
  bullets: "bullets: each sentence is one short list item; do not write the bullet character.",
  prose: "prose: complete sentences that read as one paragraph in order.",
};

const VERBOSITY_RULES: Record<Verbosity, string> = {
  concise: "concise: the fewest words that keep every fact said; telegraphic clinical style is fine.",
  standard: "standard: the usual length of a clinician's note.",
  detailed: "detailed: every relevant detail that was said, including timing, quantities and pertinent negatives.",
};

/**
 * The same for every section of a note in one language, so a provider's prompt cache can reuse it
 * together with the transcript that follows it.
 */
export function systemPrompt(language: NoteLanguage): string {
  return [
    "You are a clinical scribe. You write one section of a clinician's note from the transcript of a visit.",
    "Rules:",
    `- Write in ${LANGUAGE_NAMES[language]}, whatever the language of the transcript.`,
    "- Write ONLY what was explicitly said in the transcript. Never add a finding, number, drug, dose, diagnosis or plan that was not said; do not infer, guess or complete.",
    '- When the transcript says nothing that belongs in the section, return an empty list. Never write "not discussed", "none reported", "N/A" or anything like it.',
    '- Keep negations exactly as said (e.g. "denies chest pain").',
    "- Follow the section's instructions, but never copy the instructions into the note.",
    "- Do not write the section title; the application adds it. Do not write the section's fixed text; the application adds it verbatim.",
    "- Each sentence cites, in evidence_lines, the numbers of the transcript lines it rests on.",
    'Reply with JSON only, in exactly this shape: {"sentences": [{"text": "…", "evidence_lines": [3, 4]}]}',
  ].join("\n");
}

function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** Line n (1-based) is transcript piece n-1: the model cites these numbers and reply.ts maps them back. */
export function numberedTranscript(transcript: readonly TranscriptPiece[]): string {
  return transcript
    .map((piece, index) => {
      const speaker = piece.speaker ? `${piece.speaker}: ` : "";
      const text = piece.text.replace(/\s+/g, " ").trim();
      return `${index + 1} [${clock(piece.start)}-${clock(piece.end)}] ${speaker}${text}`;
    })
    .join("\n");
}

function contextLines(context: NoteContext | undefined): string[] {
  const lines: string[] = [];
  if (context?.visitTitle) lines.push(`Visit: ${context.visitTitle}`);
  // The patient's name is never sent: the note does not need it and the provider may be hosted.
  const patient = context?.patient;
  const about = [patient?.sex, patient?.ageYears === undefined ? undefined : `${patient.ageYears} years old`].filter(Boolean);
  if (about.length > 0) lines.push(`Patient: ${about.join(", ")}`);
  return lines;
}

function sectionSpec(section: TemplateSection): string[] {
  const lines = [
    `Section to write: "${section.title}" — ${KIND_MEANINGS[section.kind]}.`,
    `Style: ${STYLE_RULES[section.style]}`,
    `Length: ${VERBOSITY_RULES[section.verbosity]}`,
  ];
  if (section.placeholders?.length) {
    lines.push(`Fill these only from what was said, leave out any that were not: ${section.placeholders.join("; ")}.`);
  }
  if (section.instructions) lines.push(`Instructions (guidance only, never part of the note): ${section.instructions}`);
  if (section.fixedText) lines.push(`Fixed text the application adds verbatim (do not repeat it): ${section.fixedText}`);
  return lines;
}

/** System prompt, then the transcript, then the section: the shared part first (see systemPrompt). */
export function sectionMessages(input: {
  language: NoteLanguage;
  transcript: readonly TranscriptPiece[];
  context?: NoteContext;
  section: TemplateSection;
}): ChatMessage[] {
  const user = [
    "Transcript (one numbered line per turn, times in minutes:seconds of audio):",
    numberedTranscript(input.transcript),
    "",
    ...contextLines(input.context),
    ...sectionSpec(input.section),
  ].join("\n");
  return [
    { role: "system", content: systemPrompt(input.language) },
    { role: "user", content: user },
  ];
}

/** The reply shape as a strict JSON Schema (OpenAI structured outputs: every property required, no extras). */
export const SECTION_REPLY_JSON_SCHEMA = {
  name: "note_section",
  strict: true,
  schema: {
    type: "object",
    additionalProperties: false,
    required: ["sentences"],
    properties: {
      sentences: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["text", "evidence_lines"],
          properties: {
            text: { type: "string" },
            evidence_lines: { type: "array", items: { type: "integer" } },
          },
        },
      },
    },
  },
} as const;
