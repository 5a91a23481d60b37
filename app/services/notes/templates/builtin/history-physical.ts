import { type BuiltinTemplate, section } from "./define.ts";
import { allergiesSection, chiefComplaintSection, medicationsSection, vitalsSection } from "./shared-sections.ts";

export const historyPhysical: BuiltinTemplate = {
  id: "builtin:history_physical",
  name: { en: "History & Physical", fr: "Observation médicale complète", es: "Historia clínica y exploración física" },
  description: {
    en: "A full admission or new-patient work-up: history, review of systems, examination, assessment and plan.",
    fr: "Bilan complet d'admission ou de nouveau patient : antécédents, revue des systèmes, examen, évaluation et plan.",
    es: "Valoración completa de ingreso o de paciente nuevo: antecedentes, revisión por sistemas, exploración, evaluación y plan.",
  },
  sections: [
    chiefComplaintSection(),
    section(
      { key: "hpi", kind: "hpi", header: "always", verbosity: "detailed" },
      {
        en: {
          title: "History of present illness",
          instructions:
            "Chronological account of the current problem with onset, course, severity, associated symptoms and prior treatment.",
        },
        fr: {
          title: "Histoire de la maladie",
          instructions:
            "Récit chronologique du problème actuel : début, évolution, intensité, signes associés et traitements déjà reçus.",
        },
        es: {
          title: "Enfermedad actual",
          instructions:
            "Relato cronológico del problema actual: inicio, evolución, intensidad, síntomas asociados y tratamientos previos.",
        },
      },
    ),
    section(
      { key: "past_history", kind: "history", style: "bullets", persistent: true },
      {
        en: {
          title: "Past medical and surgical history",
          instructions: "Chronic conditions, hospitalisations and operations with years when stated.",
        },
        fr: {
          title: "Antécédents médicaux et chirurgicaux",
          instructions: "Maladies chroniques, hospitalisations et interventions avec l'année lorsqu'elle est mentionnée.",
        },
        es: {
          title: "Antecedentes médicos y quirúrgicos",
          instructions: "Enfermedades crónicas, hospitalizaciones e intervenciones con el año cuando se mencione.",
        },
      },
    ),
    medicationsSection(),
    allergiesSection(),
    section(
      { key: "social_family", kind: "history", verbosity: "concise" },
      {
        en: {
          title: "Social and family history",
          placeholders: ["tobacco", "alcohol", "occupation"],
          instructions:
            "Tobacco, alcohol and substance use, occupation, living situation, and illnesses in first-degree relatives.",
        },
        fr: {
          title: "Mode de vie et antécédents familiaux",
          placeholders: ["tabac", "alcool", "profession"],
          instructions:
            "Tabac, alcool et autres substances, profession, conditions de vie et maladies des apparentés au premier degré.",
        },
        es: {
          title: "Antecedentes sociales y familiares",
          placeholders: ["tabaco", "alcohol", "ocupación"],
          instructions:
            "Tabaco, alcohol y otras sustancias, ocupación, situación de convivencia y enfermedades de familiares de primer grado.",
        },
      },
    ),
    section(
      { key: "ros", kind: "ros", style: "bullets", verbosity: "concise" },
      {
        en: {
          title: "Review of systems",
          instructions: "Positive and negative symptoms by system, only for systems that were asked about.",
        },
        fr: {
          title: "Revue des systèmes",
          instructions: "Signes positifs et négatifs par appareil, uniquement pour les appareils interrogés.",
        },
        es: {
          title: "Revisión por sistemas",
          instructions: "Síntomas positivos y negativos por aparato, solo de los aparatos por los que se preguntó.",
        },
      },
    ),
    vitalsSection(),
    section(
      { key: "exam", kind: "exam", header: "always", verbosity: "detailed" },
      {
        en: { title: "Physical examination", instructions: "General appearance, then findings by system in head-to-toe order." },
        fr: { title: "Examen clinique", instructions: "État général, puis constatations par appareil de la tête aux pieds." },
        es: {
          title: "Exploración física",
          instructions: "Aspecto general y después hallazgos por aparatos de la cabeza a los pies.",
        },
      },
    ),
    section(
      { key: "results", kind: "results", style: "bullets" },
      {
        en: { title: "Results", instructions: "Laboratory, imaging and other results with values as stated." },
        fr: { title: "Résultats", instructions: "Biologie, imagerie et autres résultats avec les valeurs énoncées." },
        es: { title: "Resultados", instructions: "Laboratorio, imagen y otros resultados con los valores mencionados." },
      },
    ),
    section(
      { key: "assessment_plan", kind: "assessment_plan", header: "always", style: "bullets" },
      {
        en: {
          title: "Assessment and plan",
          instructions: "One line per problem: the clinician's assessment followed by its plan.",
        },
        fr: {
          title: "Évaluation et plan",
          instructions: "Une ligne par problème : l'évaluation du clinicien suivie de sa prise en charge.",
        },
        es: { title: "Evaluación y plan", instructions: "Una línea por problema: la evaluación del clínico seguida de su plan." },
      },
    ),
  ],
};
