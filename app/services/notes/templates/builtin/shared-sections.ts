import { section } from "./define.ts";

// Sections several built-ins share with the same wording: carried forward from the last signed
// note (issue 6 "persistent"), because a practice keeps them up to date across visits.

export const medicationsSection = () =>
  section(
    { key: "medications", kind: "medications", style: "bullets", verbosity: "concise", persistent: true },
    {
      en: {
        title: "Current medications",
        instructions:
          "One medication per line with dose, route and frequency exactly as stated. Note any medication started, stopped or changed today.",
      },
      fr: {
        title: "Traitement en cours",
        instructions:
          "Un médicament par ligne avec la dose, la voie et la fréquence telles qu'énoncées. Signaler tout médicament débuté, arrêté ou modifié ce jour.",
      },
      es: {
        title: "Medicación actual",
        instructions:
          "Un medicamento por línea con la dosis, la vía y la frecuencia tal como se dijeron. Indicar cualquier medicamento iniciado, suspendido o modificado hoy.",
      },
    },
  );

export const allergiesSection = () =>
  section(
    { key: "allergies", kind: "allergies", style: "bullets", verbosity: "concise", persistent: true },
    {
      en: {
        title: "Allergies",
        instructions:
          "Each allergen with its reaction when stated. Record “no known drug allergies” only if the patient said so.",
      },
      fr: {
        title: "Allergies",
        instructions:
          "Chaque allergène avec la réaction lorsqu'elle est mentionnée. N'indiquer « pas d'allergie médicamenteuse connue » que si le patient l'a dit.",
      },
      es: {
        title: "Alergias",
        instructions:
          "Cada alérgeno con su reacción cuando se mencione. Anotar «sin alergias medicamentosas conocidas» solo si el paciente lo dijo.",
      },
    },
  );

export const vitalsSection = () =>
  section(
    { key: "vitals", kind: "vitals", style: "bullets", verbosity: "concise" },
    {
      en: {
        title: "Vital signs",
        placeholders: ["blood pressure", "heart rate", "temperature", "respiratory rate", "oxygen saturation", "weight"],
      },
      fr: {
        title: "Constantes",
        placeholders: [
          "tension artérielle",
          "fréquence cardiaque",
          "température",
          "fréquence respiratoire",
          "saturation en oxygène",
          "poids",
        ],
      },
      es: {
        title: "Constantes vitales",
        placeholders: [
          "presión arterial",
          "frecuencia cardiaca",
          "temperatura",
          "frecuencia respiratoria",
          "saturación de oxígeno",
          "peso",
        ],
      },
    },
  );

export const chiefComplaintSection = () =>
  section(
    { key: "chief_complaint", kind: "chief_complaint", header: "always", verbosity: "concise" },
    {
      en: { title: "Chief complaint", instructions: "The reason for the visit in the patient's own words, one line." },
      fr: { title: "Motif de consultation", instructions: "Le motif de la visite avec les mots du patient, en une ligne." },
      es: { title: "Motivo de consulta", instructions: "El motivo de la visita con las palabras del paciente, en una línea." },
    },
  );
