// Facts pulled out of sentences: vitals, medication doses, allergies, teeth and periodontal
// measurements. Each is the words said, normalised only in form (digits, units).
import { findDrugs } from "./drugs.ts";

export interface Vital {
  name: "blood_pressure" | "heart_rate" | "temperature" | "oxygen_saturation" | "respiratory_rate" | "weight";
  value: string;
}

const VITAL_PATTERNS: [Vital["name"], RegExp][] = [
  [
    "blood_pressure",
    /\b(?:blood pressure|bp|tension(?: artérielle)?|presi[oó]n(?: arterial)?)\D{0,30}?(\d{2,3})\s*(?:\/|over|sur|sobre)\s*(\d{2,3})\b/i,
  ],
  ["heart_rate", /\b(?:heart rate|pulse|hr|fr[ée]quence cardiaque|pouls|frecuencia card[ií]aca|pulso)\D{0,25}?(\d{2,3})\b/i],
  ["temperature", /\b(?:temperature|temp|température|temperatura|fever of)\D{0,25}?(\d{2,3}(?:\.\d)?)\b/i],
  [
    "oxygen_saturation",
    /\b(?:oxygen saturation|o2 sat\w*|sat(?:uration)?s?|spo2|pulse ox\w*|saturación)\D{0,25}?(\d{2,3})\s*(?:%|percent|pour cent|por ciento)?/i,
  ],
  ["respiratory_rate", /\b(?:respiratory rate|respirations|fréquence respiratoire|frecuencia respiratoria)\D{0,25}?(\d{1,2})\b/i],
  [
    "weight",
    /\b(?:weight|weigh|weighs|poids|pèse|peso|pesa)\D{0,20}?(\d{2,3}(?:\.\d)?)\s*(pounds|lbs?|kilos?|kg|kilogrammes|kilogramos)?/i,
  ],
];

export function findVitals(text: string): Vital[] {
  const out: Vital[] = [];
  for (const [name, re] of VITAL_PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    if (name === "blood_pressure") out.push({ name, value: `${m[1]}/${m[2]}` });
    else if (name === "oxygen_saturation") out.push({ name, value: `${m[1]}%` });
    else if (name === "weight") out.push({ name, value: m[2] ? `${m[1]} ${m[2]}` : (m[1] as string) });
    else out.push({ name, value: m[1] as string });
  }
  return out;
}

export interface MedicationMention {
  drug: string;
  dose?: string;
  frequency?: string;
}

const DOSE =
  /(\d+(?:\.\d+)?)\s*(mg|milligrams?|milligrammes?|miligramos?|mcg|micrograms?|units?|unités|unidades|ml|g|grams?|%|puffs?)\b/i;
const FREQUENCY =
  /\b(\d+ times a day|\d+ fois par jour|\d+ veces al día|once a day|twice a day|three times a day|four times a day|once daily|twice daily|daily|every day|a day|per day|every \d+ hours|at night|at bedtime|in the morning|as needed|weekly|once a week|par jour|une fois par jour|deux fois par jour|le soir|le matin|au besoin|al día|una vez al día|dos veces al día|cada \d+ horas|por la noche|por la mañana|según necesidad)\b/i;

export function findMedications(text: string): MedicationMention[] {
  const lower = text.toLowerCase();
  const out: MedicationMention[] = [];
  for (const drug of new Set(findDrugs(lower))) {
    const at = lower.indexOf(drug);
    const window = lower.slice(at, at + drug.length + 60);
    const mention: MedicationMention = { drug };
    const dose = DOSE.exec(window);
    if (dose) mention.dose = `${dose[1]} ${/^(?:milligram|milligramme|miligramo)/i.test(dose[2] ?? "") ? "mg" : dose[2]}`;
    const frequency = FREQUENCY.exec(window);
    if (frequency) mention.frequency = frequency[1];
    out.push(mention);
  }
  return out;
}

const ALLERGY =
  /\b(?:allergic to|allergy to|allergies to|allergique (?:à|au|aux)|allergie (?:à|au|aux)|alérgic[oa] a(?:l)?)\s+([\p{L}\d\- ]{2,40})/iu;

export function findAllergy(text: string): string | null {
  const m = ALLERGY.exec(text);
  if (!m) return null;
  const allergen = (m[1] as string).split(/\s+(?:and|but|so|because|et|mais|y|pero)\s+|,/)[0]?.trim() ?? "";
  return allergen.replace(/^(?:the|la|le|les|l'|el|los|las)\s*/i, "") || null;
}

export interface ToothMention {
  tooth: string;
  system: "universal" | "fdi";
}

const TOOTH =
  /\b(?:tooth|teeth|dent|dents|diente|dientes|pieza|molar|number|numéro|número|#)\s*(?:number\s*|numéro\s*|número\s*|n°\s*|#\s*)?(\d{1,2})\b/gi;

/** Tooth numbers said: FDI two-digit quadrant codes (11–48) or universal numbers (1–32). */
export function findTeeth(text: string): ToothMention[] {
  const out: ToothMention[] = [];
  for (const m of text.matchAll(TOOTH)) {
    const n = Number(m[1]);
    const fdi = n >= 11 && n <= 48 && n % 10 >= 1 && n % 10 <= 8 && /^[1-4]/.test(String(n));
    if (fdi && n > 32) out.push({ tooth: String(n), system: "fdi" });
    else if (n >= 1 && n <= 32) out.push({ tooth: String(n), system: fdi ? "fdi" : "universal" });
  }
  return out;
}

export interface PerioMeasure {
  depthsMm: number[];
  bleeding: boolean;
}

/** Pocket depths in millimetres ("5 mm pocket", "probing 4 5 6") and bleeding on probing. */
export function findPerio(text: string): PerioMeasure | null {
  const lower = text.toLowerCase();
  if (!/\b(?:pocket|poche|bolsa|probing|sondage|sondaje|depth|profondeur|profundidad|mm|millim)/.test(lower)) return null;
  const depths = [...lower.matchAll(/\b(\d{1,2})(?:\s*(?:mm|millimeters?|millimètres?|milímetros?))?\b/g)]
    .map((m) => Number(m[1]))
    .filter((n) => n >= 1 && n <= 15);
  const bleeding = /\b(?:bleeding|bleeds|saignement|saigne|sangrado|sangra)\b/.test(lower);
  if (depths.length === 0 && !bleeding) return null;
  return { depthsMm: depths, bleeding };
}
