// Transcript pieces → sentences with speaker role and audio time (proportional within a piece).
import type { NoteLanguage, TranscriptPiece } from "../../model.ts";
import { fold, type Lexicon } from "./lexicon.ts";
import { cleanSpeech, expandContractions, numbersToDigits, punctuate, shortUnits, splitSentences, tidySpacing } from "./text.ts";

export type Role = "doctor" | "patient" | "unknown";

export interface Sentence {
  index: number;
  /** Index of the piece (turn) it came from. */
  turn: number;
  role: Role;
  start: number;
  end: number;
  /** As said (spacing tidied): the evidence quote. */
  quote: string;
  /** Fillers and openers removed, numbers as digits: the base of what the note writes. */
  clean: string;
  /** `clean` folded for matching. */
  folded: string;
  question: boolean;
}

const CLINICIAN =
  /^(?:doctor|dr|clinician|physician|provider|nurse|dentist|hygienist|médecin|docteur|medico|médico|doctora|infirmière|enfermera)\b/i;
const PATIENT = /^(?:patient|patiente|paciente|client|mother|father|parent|caregiver|pt)\b/i;

function roleOf(speaker: string | undefined): Role {
  if (!speaker) return "unknown";
  if (CLINICIAN.test(speaker)) return "doctor";
  if (PATIENT.test(speaker)) return "patient";
  return "unknown";
}

export function transcriptSentences(transcript: TranscriptPiece[], language: NoteLanguage, lexicon: Lexicon): Sentence[] {
  const out: Sentence[] = [];
  transcript.forEach((piece, turn) => {
    const text = punctuate(tidySpacing(piece.text, language), lexicon);
    if (!text) return;
    const duration = Math.max(0, piece.end - piece.start);
    for (const part of splitSentences(text)) {
      const clean = shortUnits(numbersToDigits(cleanSpeech(expandContractions(part.text, language), lexicon), lexicon));
      out.push({
        index: out.length,
        turn,
        role: roleOf(piece.speaker),
        start: round(piece.start + (duration * part.from) / text.length),
        end: round(piece.start + (duration * part.to) / text.length),
        quote: part.text,
        clean,
        folded: fold(clean),
        question: /\?\s*$/.test(part.text),
      });
    }
  });
  return out;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
