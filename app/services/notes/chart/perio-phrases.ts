import type { NoteLanguage } from "../model.ts";

// The wording of the sentences a periodontal chart contributes to a note (issue 14: "the chart's
// findings feed the built-in periodontal-exam note template"). Note content is written in the
// note's language, not the reader's UI language, so these live beside the built-in templates (which
// carry their en/fr/es text in code) rather than in locales/*.json. Site abbreviations match the
// chart's own (locales/*/perio.json "sites"): French and Spanish say vestibular (V) for buccal.

export type PerioPhrases = {
  chartOf: (date: string) => string;
  teethPresent: (n: number, implants: number) => string;
  missing: (teeth: string) => string;
  probing: (p: { mean: number; max: number; measured: number; pd4: number; pd5: number; pd6: number }) => string;
  attachment: (mean: number, max: number) => string;
  bleeding: (sites: number, total: number, percent: number) => string;
  suppuration: (sites: number, where: string) => string;
  deepest: (list: string) => string;
  mobility: (list: string) => string;
  furcation: (list: string) => string;
  plaque: (sites: number, total: number, percent: number) => string;
  calculus: (sites: number) => string;
  site: Record<string, string>;
  mm: (n: number) => string;
  grade: (n: number) => string;
  mobilityGrade: (n: number) => string;
  extent: Record<"localised" | "generalised" | "molar_incisor", string>;
  diagnosis: (stage: string, extent: string | null, grade: string | null) => string;
  confirmed: string;
  proposed: string;
  noPeriodontitis: string;
};

const ROMAN = ["", "I", "II", "III"];
const list = (items: string[], and: string) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** Decimal comma in French and Spanish. */
const num = (lang: NoteLanguage, n: number) => (lang === "en" ? String(n) : String(n).replace(".", ","));

const en: PerioPhrases = {
  chartOf: (date) => `Findings from the periodontal chart of ${date}.`,
  teethPresent: (n, implants) =>
    `${n} ${plural(n, "tooth", "teeth")} present${implants ? `, including ${implants} ${plural(implants, "implant", "implants")}` : ""}.`,
  missing: (teeth) => `Missing: ${teeth}.`,
  probing: (p) =>
    `Probing depths: mean ${num("en", p.mean)} mm, deepest ${p.max} mm; ${p.pd4} ${plural(p.pd4, "site", "sites")} ≥ 4 mm, ${p.pd5} ≥ 5 mm, ${p.pd6} ≥ 6 mm (${p.measured} ${plural(p.measured, "site", "sites")} probed).`,
  attachment: (mean, max) => `Clinical attachment level: mean ${num("en", mean)} mm, greatest ${max} mm.`,
  bleeding: (sites, total, percent) => `Bleeding on probing at ${sites} of ${total} sites (${num("en", percent)}%).`,
  suppuration: (sites, where) => `Suppuration at ${sites} ${plural(sites, "site", "sites")}: ${where}.`,
  deepest: (l) => `Deepest sites: ${l}.`,
  mobility: (l) => `Mobility: ${l}.`,
  furcation: (l) => `Furcation involvement: ${l}.`,
  plaque: (sites, total, percent) => `Plaque at ${sites} of ${total} sites (${num("en", percent)}%).`,
  calculus: (sites) => `Calculus at ${sites} ${plural(sites, "site", "sites")}.`,
  site: { DB: "DB", B: "B", MB: "MB", DL: "DL", L: "L", ML: "ML" },
  mm: (n) => `${n} mm`,
  grade: (n) => `grade ${n <= 3 ? ROMAN[n] : n}`,
  mobilityGrade: (n) => `grade ${n}`,
  extent: { localised: "localised", generalised: "generalised", molar_incisor: "molar–incisor pattern" },
  diagnosis: (stage, extent, grade) =>
    `Periodontitis stage ${stage}${extent ? `, ${extent}` : ""}${grade ? `, grade ${grade}` : ""}`,
  confirmed: "confirmed by the clinician on the chart",
  proposed: "proposed from the chart by the 2017 AAP/EFP classification, to be confirmed",
  noPeriodontitis: "No periodontitis by the 2017 AAP/EFP case definition (proposed from the chart, to be confirmed).",
};

const fr: PerioPhrases = {
  chartOf: (date) => `Données du charting parodontal du ${date}.`,
  teethPresent: (n, implants) =>
    `${n} ${plural(n, "dent présente", "dents présentes")}${implants ? `, dont ${implants} ${plural(implants, "implant", "implants")}` : ""}.`,
  missing: (teeth) => `Absentes : ${teeth}.`,
  probing: (p) =>
    `Profondeurs de sondage : moyenne ${num("fr", p.mean)} mm, maximum ${p.max} mm ; ${p.pd4} ${plural(p.pd4, "site", "sites")} ≥ 4 mm, ${p.pd5} ≥ 5 mm, ${p.pd6} ≥ 6 mm (${p.measured} ${plural(p.measured, "site sondé", "sites sondés")}).`,
  attachment: (mean, max) => `Niveau d'attache clinique : moyenne ${num("fr", mean)} mm, maximum ${max} mm.`,
  bleeding: (sites, total, percent) => `Saignement au sondage sur ${sites} sites sur ${total} (${num("fr", percent)} %).`,
  suppuration: (sites, where) => `Suppuration sur ${sites} ${plural(sites, "site", "sites")} : ${where}.`,
  deepest: (l) => `Sites les plus profonds : ${l}.`,
  mobility: (l) => `Mobilité : ${l}.`,
  furcation: (l) => `Atteintes de furcation : ${l}.`,
  plaque: (sites, total, percent) => `Plaque sur ${sites} sites sur ${total} (${num("fr", percent)} %).`,
  calculus: (sites) => `Tartre sur ${sites} ${plural(sites, "site", "sites")}.`,
  site: { DB: "DV", B: "V", MB: "MV", DL: "DL", L: "L", ML: "ML" },
  mm: (n) => `${n} mm`,
  grade: (n) => `classe ${n <= 3 ? ROMAN[n] : n}`,
  mobilityGrade: (n) => `degré ${n}`,
  extent: { localised: "localisée", generalised: "généralisée", molar_incisor: "forme molaire–incisive" },
  diagnosis: (stage, extent, grade) =>
    `Parodontite stade ${stage}${extent ? `, ${extent}` : ""}${grade ? `, grade ${grade}` : ""}`,
  confirmed: "confirmé par le praticien sur le charting",
  proposed: "proposé d'après le charting selon la classification AAP/EFP 2017, à confirmer",
  noPeriodontitis: "Pas de parodontite selon la définition de cas AAP/EFP 2017 (proposé d'après le charting, à confirmer).",
};

const es: PerioPhrases = {
  chartOf: (date) => `Hallazgos del periodontograma del ${date}.`,
  teethPresent: (n, implants) =>
    `${n} ${plural(n, "diente presente", "dientes presentes")}${implants ? `, incluidos ${implants} ${plural(implants, "implante", "implantes")}` : ""}.`,
  missing: (teeth) => `Ausentes: ${teeth}.`,
  probing: (p) =>
    `Profundidad de sondaje: media ${num("es", p.mean)} mm, máxima ${p.max} mm; ${p.pd4} ${plural(p.pd4, "sitio", "sitios")} ≥ 4 mm, ${p.pd5} ≥ 5 mm, ${p.pd6} ≥ 6 mm (${p.measured} ${plural(p.measured, "sitio sondado", "sitios sondados")}).`,
  attachment: (mean, max) => `Nivel de inserción clínica: media ${num("es", mean)} mm, máximo ${max} mm.`,
  bleeding: (sites, total, percent) => `Sangrado al sondaje en ${sites} de ${total} sitios (${num("es", percent)} %).`,
  suppuration: (sites, where) => `Supuración en ${sites} ${plural(sites, "sitio", "sitios")}: ${where}.`,
  deepest: (l) => `Sitios más profundos: ${l}.`,
  mobility: (l) => `Movilidad: ${l}.`,
  furcation: (l) => `Lesiones de furca: ${l}.`,
  plaque: (sites, total, percent) => `Placa en ${sites} de ${total} sitios (${num("es", percent)} %).`,
  calculus: (sites) => `Cálculo en ${sites} ${plural(sites, "sitio", "sitios")}.`,
  site: { DB: "DV", B: "V", MB: "MV", DL: "DL", L: "L", ML: "ML" },
  mm: (n) => `${n} mm`,
  grade: (n) => `grado ${n <= 3 ? ROMAN[n] : n}`,
  mobilityGrade: (n) => `grado ${n}`,
  extent: { localised: "localizada", generalised: "generalizada", molar_incisor: "patrón molar–incisivo" },
  diagnosis: (stage, extent, grade) =>
    `Periodontitis estadio ${stage}${extent ? `, ${extent}` : ""}${grade ? `, grado ${grade}` : ""}`,
  confirmed: "confirmado por el clínico en el periodontograma",
  proposed: "propuesto a partir del periodontograma según la clasificación AAP/EFP 2017, pendiente de confirmar",
  noPeriodontitis:
    "Sin periodontitis según la definición de caso AAP/EFP 2017 (propuesto a partir del periodontograma, pendiente de confirmar).",
};

const AND: Record<NoteLanguage, string> = { en: "and", fr: "et", es: "y" };

export const PERIO_PHRASES: Record<NoteLanguage, PerioPhrases> = { en, fr, es };

export function joinList(lang: NoteLanguage, items: string[]): string {
  return list(items, AND[lang]);
}
