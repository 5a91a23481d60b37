// Problems of a problem-oriented assessment and plan (issue 18): where the clinician turns to a
// problem ("for her first problem, her heart failure", "regarding your diabetes", "pour son
// diabète", "en cuanto a su diabetes") or names a diagnosis of the lexicon in an assessment.
import type { NoteLanguage } from "../../model.ts";
import { fold } from "./lexicon.ts";
import { u } from "./rewrite-unicode.ts";
import type { Sentence } from "./sentences.ts";

export interface Problem {
  /** As said, without possessive: "congestive heart failure". */
  name: string;
  /** Index of the sentence that opens the problem. */
  at: number;
  evidence: Sentence;
}

/** Diagnoses a clinician names in an assessment, longest first when matched. */
export const DIAGNOSES: Record<NoteLanguage, string[]> = {
  en: [
    "acute heart failure exacerbation",
    "congestive heart failure",
    "heart failure",
    "hypertension",
    "high blood pressure",
    "type 2 diabetes",
    "type 1 diabetes",
    "diabetes",
    "hyperlipidemia",
    "high cholesterol",
    "coronary artery disease",
    "atrial fibrillation",
    "chronic obstructive pulmonary disease",
    "copd",
    "asthma",
    "pneumonia",
    "bronchitis",
    "upper respiratory infection",
    "sinusitis",
    "pharyngitis",
    "strep throat",
    "otitis media",
    "urinary tract infection",
    "kidney stone",
    "chronic kidney disease",
    "acute kidney injury",
    "gastroesophageal reflux disease",
    "reflux",
    "gerd",
    "irritable bowel syndrome",
    "gastroenteritis",
    "hypothyroidism",
    "hyperthyroidism",
    "depression",
    "anxiety",
    "insomnia",
    "migraine",
    "headaches",
    "osteoarthritis",
    "rheumatoid arthritis",
    "arthritis",
    "gout",
    "osteoporosis",
    "low back pain",
    "back pain",
    "knee pain",
    "shoulder pain",
    "neck pain",
    "ankle sprain",
    "sprain",
    "strain",
    "fracture",
    "tendinitis",
    "bursitis",
    "carpal tunnel syndrome",
    "rotator cuff tear",
    "meniscus tear",
    "cellulitis",
    "eczema",
    "psoriasis",
    "anemia",
    "obesity",
    "sleep apnea",
    "allergic rhinitis",
    "seasonal allergies",
    "chest pain",
    "angina",
    "stroke",
    "neuropathy",
    "lupus",
    "multiple sclerosis",
    "prostate cancer",
    "breast cancer",
    "lung cancer",
    "cancer",
  ],
  fr: [
    "insuffisance cardiaque",
    "hypertension artérielle",
    "hypertension",
    "diabète de type 2",
    "diabète",
    "hypercholestérolémie",
    "fibrillation auriculaire",
    "bpco",
    "asthme",
    "pneumopathie",
    "pneumonie",
    "bronchite",
    "angine",
    "pharyngite",
    "sinusite",
    "otite",
    "infection urinaire",
    "cystite",
    "reflux gastro-œsophagien",
    "gastro-entérite",
    "hypothyroïdie",
    "dépression",
    "anxiété",
    "insomnie",
    "migraine",
    "arthrose",
    "goutte",
    "lombalgie mécanique",
    "lombalgie",
    "cervicalgie",
    "entorse",
    "fracture",
    "tendinite",
    "eczéma",
    "anémie",
    "obésité",
    "apnée du sommeil",
    "rhinite allergique",
  ],
  es: [
    "insuficiencia cardíaca",
    "hipertensión arterial",
    "hipertensión",
    "diabetes tipo 2",
    "diabetes",
    "colesterol alto",
    "hipercolesterolemia",
    "fibrilación auricular",
    "epoc",
    "asma",
    "neumonía",
    "bronquitis",
    "faringitis viral",
    "faringitis",
    "amigdalitis",
    "sinusitis",
    "otitis",
    "infección urinaria",
    "reflujo gastroesofágico",
    "gastroenteritis",
    "hipotiroidismo",
    "depresión",
    "ansiedad",
    "insomnio",
    "migraña",
    "artrosis",
    "gota",
    "lumbalgia",
    "esguince",
    "fractura",
    "tendinitis",
    "eccema",
    "anemia",
    "obesidad",
    "apnea del sueño",
    "rinitis alérgica",
  ],
};

const NP = "([\\p{L}\\d' -]{3,60}?)";
const STOP_EN =
  "(?=,|;|\\.|\\?|$|\\s(?:i|we|you|he|she|it|that|which|is|are|was|were|has|have|had|so|because|and i|and we|and you|and he|and she|there|right now|today|at this point|seems|looks|sounds|appears|i think)\\b)";
const STOP_FR = "(?=,|;|\\.|\\?|$|\\s(?:je|on|nous|vous|il|elle|qui|est|sont|a|c'est|donc|car|aujourd'hui)\\b)";
const STOP_ES = "(?=,|;|\\.|\\?|$|\\s(?:yo|voy|vamos|le|usted|que|es|está|tiene|ha|así|porque|hoy)\\b)";

const CUES: Record<NoteLanguage, RegExp[]> = {
  en: [
    u(
      `\\b(?:your|his|her|their|the|the patient's) (?:first|second|third|fourth|fifth|sixth|next|last|final|other|main) (?:problem|issue|concern|diagnosis|complaint)(?: (?:is|was|of|being|today))?,?\\s*(?:(?:your|his|her|their|the|a|an) )?${NP}${STOP_EN}`,
    ),
    u(
      `^(?:(?:and|so|now|okay|ok|alright|next|then|lastly|finally|secondly|first|first of all|moving on)[,\\s]+)*(?:for|regarding|with regards? to|in regards? to|as far as|in terms of|as for|moving on to|turning to|concerning|with respect to|now for)\\s+(?:your|his|her|their|the|the patient's)\\s+${NP}${STOP_EN}`,
    ),
    u(
      `^(?:(?:and|so|now|okay)[,\\s]+)*(?:number (?:one|two|three|four|five|1|2|3|4|5))[,:\\s]+(?:(?:your|his|her|their|the) )?${NP}${STOP_EN}`,
    ),
  ],
  fr: [
    u(
      `\\b(?:son|votre|le) (?:premier|deuxième|second|troisième|quatrième|cinquième|autre|dernier) (?:problème|souci|diagnostic)(?: (?:est|c'est))?,?\\s*(?:(?:son|sa|ses|votre|vos|le|la|les|l') ?)?${NP}${STOP_FR}`,
    ),
    u(
      `^(?:(?:et|alors|donc|ensuite|enfin)[,\\s]+)*(?:pour|concernant|quant à|en ce qui concerne|au sujet de|côté)\\s+(?:son |sa |ses |votre |vos |le |la |les |l')${NP}${STOP_FR}`,
    ),
  ],
  es: [
    u(
      `\\b(?:su|el) (?:primer|segundo|tercer|cuarto|quinto|otro|último) (?:problema|diagnóstico)(?: (?:es))?,?\\s*(?:(?:su|sus|el|la|los|las) )?${NP}${STOP_ES}`,
    ),
    u(
      `^(?:(?:y|entonces|ahora|luego|por último)[,\\s]+)*(?:en cuanto a|respecto a|con respecto a|sobre|para|en relación con|por lo que respecta a)\\s+(?:su |sus |el |la |los |las )${NP}${STOP_ES}`,
    ),
  ],
};

/** Words that follow "for your …" without being a problem ("for your information", "for your medications"). */
const NOT_PROBLEMS =
  /^(?:information|medications?|meds|medicines?|blood ?work|labs?|results?|plan|exam|visit|questions?|appointment|follow[- ]?up|time|help|patience|records?|insurance|pharmacy|family|wife|husband|daughter|son|kids?|children|job|work|age|weight|history|symptoms?|vitals|x-?rays?|first|second|next|other|part|information|résultats?|traitements?|médicaments?|ordonnance|rendez-vous|questions?|resultados?|medicamentos?|medicinas?|receta|cita|preguntas?)\b/;

function cleanName(raw: string): string {
  return (
    raw
      .trim()
      // "her second problem is for your migraines": every lead word goes, not only the first.
      .replace(
        /^(?:(?:of|is|was|being|for|regarding|about|the|a|an|your|his|her|their|de|d'|du|la|le|les|l'|pour|su|sus|el|los|las|para)\s+)+/i,
        "",
      )
      .replace(/\s+(?:today|right now|now|issue|issues|problem|problems|aujourd'hui|hoy)$/i, "")
      .replace(/[\s,'-]+$/, "")
      .trim()
  );
}

/** Where each problem opens, in the order they are taken up (a problem named again is the same one). */
export function findProblems(sentences: Sentence[], language: NoteLanguage, isClinician: (s: Sentence) => boolean): Problem[] {
  const problems: Problem[] = [];
  const known = new Map<string, Problem>();
  const diagnoses = [...DIAGNOSES[language]].sort((a, b) => b.length - a.length);
  for (const s of sentences) {
    if (s.question || !isClinician(s)) continue;
    const text = s.clean.toLowerCase();
    let name: string | null = null;
    for (const re of CUES[language]) {
      const m = re.exec(text);
      if (m?.[1]) {
        const candidate = cleanName(m[1]);
        if (candidate.split(/\s+/).length <= 6 && !NOT_PROBLEMS.test(fold(candidate))) name = candidate;
        break;
      }
    }
    if (!name) continue;
    // Prefer the lexicon's name when the phrase holds one ("your diabetes management" → "diabetes management" stays; it is what was said).
    const key = keyOf(name, diagnoses);
    if (known.has(key)) continue;
    const problem = { name, at: s.index, evidence: s };
    known.set(key, problem);
    problems.push(problem);
  }
  return problems;
}

/** A problem's identity: the lexicon diagnosis its name holds, else the name folded. */
export function keyOf(name: string, diagnoses: string[]): string {
  const folded = ` ${fold(name)} `;
  const hit = diagnoses.find((d) => folded.includes(` ${fold(d)} `));
  return hit ? fold(hit) : fold(name).trim();
}

/** The problem a sentence names (its name or its lexicon diagnosis), if any. */
export function problemNamedIn(text: string, problems: Problem[], language: NoteLanguage): Problem | null {
  const diagnoses = DIAGNOSES[language];
  const folded = ` ${fold(text).replace(/[^\p{L}\d' -]+/gu, " ")} `;
  for (const p of problems) {
    const name = fold(p.name);
    if (folded.includes(` ${name} `)) return p;
    const key = keyOf(p.name, diagnoses);
    if (diagnoses.some((d) => fold(d) === key) && folded.includes(` ${key} `)) return p;
  }
  return null;
}

/** The sentence without the words that opened the problem ("For his first problem, his CHF, he is …" → "he is …"). */
export function withoutCue(text: string, problem: Problem): string {
  const lower = text.toLowerCase();
  const at = lower.indexOf(problem.name.toLowerCase());
  if (at < 0 || at > 90) return text;
  const before = lower.slice(0, at);
  if (
    !/\b(?:for|regarding|problem|issue|concern|diagnosis|terms of|far as|as for|respect to|regards? to|turning to|number|pour|concernant|quant à|problème|sujet|en cuanto a|respecto a|problema|sobre|para)\b/u.test(
      before,
    )
  )
    return text;
  return text.slice(at + problem.name.length).replace(/^[\s,:;.-]+/, "");
}
