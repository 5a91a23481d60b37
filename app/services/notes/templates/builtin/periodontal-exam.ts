import { type BuiltinTemplate, section } from "./define.ts";
import { chiefComplaintSection, medicationsSection } from "./shared-sections.ts";

export const periodontalExam: BuiltinTemplate = {
  id: "builtin:periodontal_exam",
  name: { en: "Periodontal exam", fr: "Examen parodontal", es: "Exploración periodontal" },
  description: {
    en: "Periodontal charting, risk factors, staging and grading, and the periodontal treatment plan.",
    fr: "Charting parodontal, facteurs de risque, stade et grade, et plan de traitement parodontal.",
    es: "Periodontograma, factores de riesgo, estadio y grado, y plan de tratamiento periodontal.",
  },
  sections: [
    chiefComplaintSection(),
    section(
      { key: "risk_factors", kind: "history", style: "bullets", verbosity: "concise", persistent: true },
      {
        en: {
          title: "Risk factors",
          placeholders: ["smoking", "diabetes", "HbA1c"],
          instructions: "Smoking with amount, diabetes and its control, family history of periodontitis.",
        },
        fr: {
          title: "Facteurs de risque",
          placeholders: ["tabac", "diabète", "HbA1c"],
          instructions: "Tabac avec la consommation, diabète et son équilibre, antécédents familiaux de parodontite.",
        },
        es: {
          title: "Factores de riesgo",
          placeholders: ["tabaco", "diabetes", "HbA1c"],
          instructions: "Tabaco con la cantidad, diabetes y su control, antecedentes familiares de periodontitis.",
        },
      },
    ),
    medicationsSection(),
    section(
      { key: "charting", kind: "periodontal", style: "bullets", verbosity: "detailed" },
      {
        en: {
          title: "Periodontal charting",
          placeholders: ["probing depths", "bleeding on probing", "recession", "mobility", "furcation"],
          instructions:
            "Per tooth: probing depths in millimetres, bleeding, recession, mobility grade and furcation class as dictated.",
        },
        fr: {
          title: "Charting parodontal",
          placeholders: ["profondeurs de poche", "saignement au sondage", "récession", "mobilité", "atteinte de furcation"],
          instructions:
            "Par dent : profondeurs de sondage en millimètres, saignement, récession, degré de mobilité et classe de furcation tels que dictés.",
        },
        es: {
          title: "Periodontograma",
          placeholders: ["profundidad de sondaje", "sangrado al sondaje", "recesión", "movilidad", "furca"],
          instructions:
            "Por diente: profundidad de sondaje en milímetros, sangrado, recesión, grado de movilidad y clase de furca tal como se dictaron.",
        },
      },
    ),
    section(
      { key: "hygiene", kind: "periodontal", verbosity: "concise" },
      {
        en: { title: "Plaque and oral hygiene", placeholders: ["plaque score"] },
        fr: { title: "Plaque et hygiène bucco-dentaire", placeholders: ["indice de plaque"] },
        es: { title: "Placa e higiene oral", placeholders: ["índice de placa"] },
      },
    ),
    section(
      { key: "radiographs", kind: "results", verbosity: "concise" },
      {
        en: { title: "Radiographic bone levels", instructions: "Pattern and extent of bone loss as read." },
        fr: { title: "Niveaux osseux radiographiques", instructions: "Type et étendue de la perte osseuse telle que lue." },
        es: {
          title: "Niveles óseos radiográficos",
          instructions: "Patrón y extensión de la pérdida ósea tal como se interpretó.",
        },
      },
    ),
    section(
      { key: "diagnosis", kind: "assessment", header: "always" },
      {
        en: { title: "Periodontal diagnosis", placeholders: ["stage", "grade", "extent"] },
        fr: { title: "Diagnostic parodontal", placeholders: ["stade", "grade", "étendue"] },
        es: { title: "Diagnóstico periodontal", placeholders: ["estadio", "grado", "extensión"] },
      },
    ),
    section(
      { key: "plan", kind: "plan", header: "always", style: "bullets" },
      {
        en: {
          title: "Treatment plan",
          instructions:
            "Scaling and root planing by quadrant, adjuncts, oral hygiene instruction, re-evaluation and maintenance interval.",
        },
        fr: {
          title: "Plan de traitement",
          instructions:
            "Détartrage et surfaçage radiculaire par quadrant, traitements adjuvants, enseignement de l'hygiène, réévaluation et intervalle de maintenance.",
        },
        es: {
          title: "Plan de tratamiento",
          instructions:
            "Raspado y alisado radicular por cuadrante, coadyuvantes, instrucciones de higiene, reevaluación e intervalo de mantenimiento.",
        },
      },
    ),
  ],
};
