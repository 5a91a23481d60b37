import { type BuiltinTemplate, section } from "./define.ts";
import { allergiesSection, chiefComplaintSection, medicationsSection, vitalsSection } from "./shared-sections.ts";

export const soap: BuiltinTemplate = {
  id: "builtin:soap",
  name: { en: "SOAP note", fr: "Note SOAP", es: "Nota SOAP" },
  description: {
    en: "Subjective, objective, assessment and plan: the everyday visit note.",
    fr: "Subjectif, objectif, évaluation et plan : la note de consultation courante.",
    es: "Subjetivo, objetivo, evaluación y plan: la nota de consulta habitual.",
  },
  sections: [
    chiefComplaintSection(),
    section(
      { key: "subjective", kind: "hpi", header: "always" },
      {
        en: {
          title: "Subjective",
          instructions:
            "History of the present illness: onset, location, duration, character, aggravating and relieving factors, associated symptoms, and pertinent negatives the patient stated.",
        },
        fr: {
          title: "Subjectif",
          instructions:
            "Histoire de la maladie : début, localisation, durée, caractère, facteurs aggravants et soulageants, signes associés et signes négatifs pertinents énoncés par le patient.",
        },
        es: {
          title: "Subjetivo",
          instructions:
            "Enfermedad actual: inicio, localización, duración, carácter, factores agravantes y atenuantes, síntomas asociados y negativos pertinentes que refirió el paciente.",
        },
      },
    ),
    medicationsSection(),
    allergiesSection(),
    vitalsSection(),
    section(
      { key: "objective", kind: "exam", header: "always" },
      {
        en: {
          title: "Objective",
          instructions: "Examination findings by system as the clinician stated them, including normal findings that were named.",
        },
        fr: {
          title: "Objectif",
          instructions:
            "Résultats de l'examen par appareil tels qu'énoncés par le clinicien, y compris les éléments normaux cités.",
        },
        es: {
          title: "Objetivo",
          instructions:
            "Hallazgos de la exploración por aparatos tal como los dijo el clínico, incluidos los hallazgos normales mencionados.",
        },
      },
    ),
    section(
      { key: "assessment", kind: "assessment", header: "always" },
      {
        en: {
          title: "Assessment",
          instructions: "The clinician's diagnosis or differential as stated; never add a diagnosis that was not said.",
        },
        fr: {
          title: "Évaluation",
          instructions:
            "Le diagnostic ou les hypothèses du clinicien tels qu'énoncés ; ne jamais ajouter un diagnostic non prononcé.",
        },
        es: {
          title: "Evaluación",
          instructions:
            "El diagnóstico o diagnóstico diferencial del clínico tal como lo dijo; nunca añadir un diagnóstico no mencionado.",
        },
      },
    ),
    section(
      { key: "plan", kind: "plan", header: "always", style: "bullets" },
      {
        en: {
          title: "Plan",
          instructions: "Tests ordered, treatment, prescriptions with dose, referrals, patient education and follow-up interval.",
        },
        fr: {
          title: "Plan",
          instructions:
            "Examens prescrits, traitement, prescriptions avec posologie, orientations, éducation du patient et délai de suivi.",
        },
        es: {
          title: "Plan",
          instructions:
            "Pruebas solicitadas, tratamiento, prescripciones con dosis, derivaciones, educación del paciente y plazo de seguimiento.",
        },
      },
    ),
  ],
};
