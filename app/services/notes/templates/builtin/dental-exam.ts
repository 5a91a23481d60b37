import { type BuiltinTemplate, section } from "./define.ts";
import { allergiesSection, chiefComplaintSection, medicationsSection } from "./shared-sections.ts";

export const dentalExam: BuiltinTemplate = {
  id: "builtin:dental_exam",
  name: { en: "Dental exam", fr: "Examen dentaire", es: "Exploración dental" },
  description: {
    en: "Comprehensive or periodic oral examination with charting, radiographs and treatment plan.",
    fr: "Examen bucco-dentaire complet ou de contrôle avec schéma dentaire, radiographies et plan de traitement.",
    es: "Exploración oral completa o periódica con odontograma, radiografías y plan de tratamiento.",
  },
  sections: [
    chiefComplaintSection(),
    section(
      { key: "dental_history", kind: "history", verbosity: "concise" },
      {
        en: {
          title: "Dental history",
          instructions: "Last visit, previous treatment, pain, sensitivity, bruxism and home care as the patient described them.",
        },
        fr: {
          title: "Antécédents dentaires",
          instructions:
            "Dernière visite, soins antérieurs, douleur, sensibilité, bruxisme et hygiène à domicile tels que décrits par le patient.",
        },
        es: {
          title: "Antecedentes dentales",
          instructions: "Última visita, tratamientos previos, dolor, sensibilidad, bruxismo e higiene en casa según el paciente.",
        },
      },
    ),
    section(
      { key: "medical_history", kind: "history", style: "bullets", verbosity: "concise", persistent: true },
      {
        en: {
          title: "Medical history",
          instructions: "Conditions that affect dental care: cardiac, bleeding disorders, diabetes, bisphosphonates, pregnancy.",
        },
        fr: {
          title: "Antécédents médicaux",
          instructions:
            "Pathologies influant sur les soins : cardiopathies, troubles de la coagulation, diabète, bisphosphonates, grossesse.",
        },
        es: {
          title: "Antecedentes médicos",
          instructions:
            "Enfermedades que afectan al tratamiento dental: cardiopatías, trastornos de la coagulación, diabetes, bifosfonatos, embarazo.",
        },
      },
    ),
    medicationsSection(),
    allergiesSection(),
    section(
      { key: "extraoral", kind: "exam", verbosity: "concise" },
      {
        en: { title: "Extraoral examination", instructions: "TMJ, muscles of mastication, lymph nodes and facial symmetry." },
        fr: { title: "Examen exobuccal", instructions: "ATM, muscles masticateurs, ganglions et symétrie faciale." },
        es: { title: "Exploración extraoral", instructions: "ATM, músculos masticatorios, ganglios y simetría facial." },
      },
    ),
    section(
      { key: "intraoral", kind: "dental_exam" },
      {
        en: { title: "Intraoral examination", instructions: "Soft tissues, oral cancer screening, occlusion and oral hygiene." },
        fr: {
          title: "Examen endobuccal",
          instructions: "Tissus mous, dépistage des lésions cancéreuses, occlusion et hygiène bucco-dentaire.",
        },
        es: { title: "Exploración intraoral", instructions: "Tejidos blandos, cribado de cáncer oral, oclusión e higiene oral." },
      },
    ),
    section(
      { key: "hard_tissue", kind: "dental_exam", style: "bullets", verbosity: "detailed" },
      {
        en: {
          title: "Hard tissue charting",
          placeholders: ["tooth number", "surface", "finding"],
          instructions:
            "One line per tooth with its number and the finding (caries, fracture, existing restoration, missing) exactly as called out.",
        },
        fr: {
          title: "Schéma dentaire",
          placeholders: ["numéro de dent", "face", "constat"],
          instructions:
            "Une ligne par dent avec son numéro et le constat (carie, fracture, restauration existante, absente) tel qu'énoncé.",
        },
        es: {
          title: "Odontograma",
          placeholders: ["número de diente", "superficie", "hallazgo"],
          instructions:
            "Una línea por diente con su número y el hallazgo (caries, fractura, restauración existente, ausente) tal como se dictó.",
        },
      },
    ),
    section(
      { key: "radiographs", kind: "results", verbosity: "concise" },
      {
        en: {
          title: "Radiographs",
          placeholders: ["radiograph type"],
          instructions: "Images taken (bitewings, periapicals, panoramic) and their findings.",
        },
        fr: {
          title: "Radiographies",
          placeholders: ["type de cliché"],
          instructions: "Clichés réalisés (rétro-coronaires, rétro-alvéolaires, panoramique) et leurs constats.",
        },
        es: {
          title: "Radiografías",
          placeholders: ["tipo de radiografía"],
          instructions: "Radiografías realizadas (aletas de mordida, periapicales, panorámica) y sus hallazgos.",
        },
      },
    ),
    section(
      { key: "assessment", kind: "assessment", header: "always" },
      {
        en: { title: "Diagnosis" },
        fr: { title: "Diagnostic" },
        es: { title: "Diagnóstico" },
      },
    ),
    section(
      { key: "treatment_plan", kind: "plan", header: "always", style: "bullets" },
      {
        en: {
          title: "Treatment plan",
          instructions: "Planned treatment by tooth in order of priority, and the recall interval.",
        },
        fr: { title: "Plan de traitement", instructions: "Soins prévus par dent par ordre de priorité, et délai de rappel." },
        es: {
          title: "Plan de tratamiento",
          instructions: "Tratamiento previsto por diente en orden de prioridad y el intervalo de revisión.",
        },
      },
    ),
  ],
};
