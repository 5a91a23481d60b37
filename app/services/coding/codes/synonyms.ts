import { words } from "../text.ts";

// Code search like a coder's index (ADR 43): the words clinicians write and the words ICD-10-CM
// titles use for the same thing. Each pair is used both ways; a query is searched as written and
// with each equivalent substituted (codes/search.ts). Anatomical equivalents follow the Tabular
// List's own wording ("lower end of radius" for the distal radius).

const PAIRS: Array<[string, string, "one-way"?]> = [
  ["distal", "lower end"],
  ["proximal", "upper end"],
  ["heart attack", "myocardial infarction"],
  ["high blood pressure", "hypertension"],
  ["raised blood pressure", "hypertension"],
  ["low blood pressure", "hypotension"],
  ["high cholesterol", "hypercholesterolemia"],
  ["high blood sugar", "hyperglycemia"],
  ["low blood sugar", "hypoglycemia"],
  ["stroke", "cerebral infarction"],
  ["mini stroke", "transient cerebral ischemic attack"],
  ["broken", "fracture", "one-way"],
  ["kidney", "renal"],
  ["kidney stone", "calculus of kidney"],
  ["gallstone", "calculus of gallbladder"],
  ["shortness of breath", "dyspnea"],
  ["breathlessness", "dyspnea"],
  ["belly pain", "abdominal pain"],
  ["stomach ache", "abdominal pain"],
  ["tummy ache", "abdominal pain"],
  ["heartburn", "gastro-esophageal reflux"],
  ["acid reflux", "gastro-esophageal reflux"],
  ["sugar diabetes", "diabetes mellitus"],
  ["underactive thyroid", "hypothyroidism"],
  ["overactive thyroid", "hyperthyroidism"],
  ["blood clot", "thrombosis"],
  ["bladder infection", "cystitis"],
  ["water infection", "urinary tract infection"],
  ["pink eye", "conjunctivitis"],
  ["hay fever", "allergic rhinitis"],
  ["chickenpox", "varicella"],
  ["shingles", "zoster"],
  ["german measles", "rubella"],
  ["whooping cough", "pertussis"],
  ["flu", "influenza"],
  ["cold sore", "herpesviral vesicular dermatitis"],
  ["bedsore", "pressure ulcer"],
  ["pressure sore", "pressure ulcer"],
  ["nosebleed", "epistaxis"],
  ["fainting", "syncope"],
  ["faint", "syncope", "one-way"],
  ["itching", "pruritus"],
  ["itchy", "pruritus", "one-way"],
  ["hives", "urticaria"],
  ["swelling", "edema"],
  ["bruise", "contusion"],
  ["cut", "laceration"],
  ["sprained", "sprain", "one-way"],
  ["dislocated", "dislocation", "one-way"],
  ["collarbone", "clavicle"],
  ["shin bone", "tibia"],
  ["shinbone", "tibia"],
  ["thigh bone", "femur"],
  ["kneecap", "patella"],
  ["wrist bone", "carpal bone"],
  ["hip fracture", "fracture of femur"],
  ["cancer", "malignant neoplasm"],
  ["tumour", "neoplasm"],
  ["tumor", "neoplasm"],
  ["lung", "bronchus or lung"],
  ["breast lump", "lump in breast"],
  ["tennis elbow", "lateral epicondylitis"],
  ["golfer's elbow", "medial epicondylitis"],
  ["frozen shoulder", "adhesive capsulitis"],
  ["slipped disc", "intervertebral disc displacement"],
  ["back pain", "dorsalgia"],
  ["anaemia", "anemia"],
  ["oedema", "edema"],
  ["diarrhoea", "diarrhea"],
  ["haemorrhage", "hemorrhage"],
  ["oesophagus", "esophagus"],
  ["paediatric", "pediatric"],
  ["tooth decay", "dental caries"],
  ["gum disease", "periodontitis"],
  ["bilateral", "both"],
  ["right sided", "right", "one-way"],
  ["left sided", "left", "one-way"],
  ["rt", "right", "one-way"],
  ["lt", "left", "one-way"],
];

/**
 * Main terms of a coder's index that lead to one code when nothing more is said (the Alphabetic
 * Index's default: "Hypertension → I10"); that code comes first for exactly these words.
 */
const MAIN_TERMS: Array<[string, string]> = [
  ["hypertension", "I10"],
  ["myocardial infarction", "I21.9"],
  ["acute myocardial infarction", "I21.9"],
  ["pneumonia", "J18.9"],
  ["diabetes", "E11.9"],
  ["diabetes mellitus", "E11.9"],
  ["type 2 diabetes", "E11.9"],
  ["type 2 diabetes mellitus", "E11.9"],
  ["asthma", "J45.909"],
  ["cerebral infarction", "I63.9"],
  ["heart failure", "I50.9"],
  ["atrial fibrillation", "I48.91"],
  ["urinary tract infection", "N39.0"],
  ["hypothyroidism", "E03.9"],
  ["hyperlipidemia", "E78.5"],
  ["anemia", "D64.9"],
  ["depression", "F32.A"],
  ["anxiety", "F41.9"],
  ["migraine", "G43.909"],
  ["low back pain", "M54.50"],
  ["dorsalgia", "M54.9"],
  ["influenza", "J11.1"],
  ["obesity", "E66.9"],
  ["gastro esophageal reflux", "K21.9"],
  ["chronic obstructive pulmonary disease", "J44.9"],
];

export const MAIN_TERM_CODES: ReadonlyMap<string, string> = new Map(MAIN_TERMS.map(([t, c]) => [words(t).join(" "), c]));

export interface Equivalent {
  from: string[];
  to: string[];
}

/** Every rewrite (folded, stemmed words), both directions unless one-way; longest first. */
export const EQUIVALENTS: Equivalent[] = PAIRS.flatMap(([a, b, oneWay]) => {
  const wa = words(a);
  const wb = words(b);
  return oneWay
    ? [{ from: wa, to: wb }]
    : [
        { from: wa, to: wb },
        { from: wb, to: wa },
      ];
}).sort((x, y) => y.from.length - x.from.length);

/**
 * The query's variants: as written, then with each equivalent phrase substituted (one at a time),
 * then every applicable one at once (left to right, longest first, never rewriting a rewrite).
 * Words are folded and stemmed (text.ts words()).
 */
export function queryVariants(query: string[]): string[][] {
  const out: string[][] = [query];
  const seen = new Set([query.join(" ")]);
  const push = (v: string[]) => {
    if (!seen.has(v.join(" "))) {
      seen.add(v.join(" "));
      out.push(v);
    }
  };
  const all: string[] = [];
  for (let i = 0; i < query.length; ) {
    const eq = EQUIVALENTS.find((e) => startsAt(query, e.from, i));
    if (!eq) {
      all.push(query[i]!);
      i++;
      continue;
    }
    all.push(...eq.to);
    i += eq.from.length;
  }
  for (const eq of EQUIVALENTS) {
    for (let i = 0; i < query.length; i++) {
      if (startsAt(query, eq.from, i)) push([...query.slice(0, i), ...eq.to, ...query.slice(i + eq.from.length)]);
    }
  }
  push(all);
  return out;
}

function startsAt(haystack: string[], needle: string[], at: number): boolean {
  if (at + needle.length > haystack.length) return false;
  return needle.every((w, j) => haystack[at + j] === w);
}
