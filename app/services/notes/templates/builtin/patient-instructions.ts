import { type BuiltinTemplate, section } from "./define.ts";

export const patientInstructions: BuiltinTemplate = {
  id: "builtin:patient_instructions",
  name: { en: "Patient instructions", fr: "Consignes au patient", es: "Instrucciones para el paciente" },
  description: {
    en: "A plain-language summary the patient takes home: what was found, what to do and when to call.",
    fr: "Un résumé en langage simple que le patient emporte : ce qui a été constaté, ce qu'il faut faire et quand appeler.",
    es: "Un resumen en lenguaje sencillo para llevar a casa: qué se encontró, qué hacer y cuándo llamar.",
  },
  sections: [
    section(
      { key: "summary", kind: "patient_instructions", header: "always", verbosity: "concise" },
      {
        en: { title: "What we found today", instructions: "Plain words, no abbreviations, addressed to the patient as “you”." },
        fr: {
          title: "Ce que nous avons constaté aujourd'hui",
          instructions: "Mots simples, sans abréviation, en s'adressant au patient (« vous »).",
        },
        es: {
          title: "Lo que encontramos hoy",
          instructions: "Palabras sencillas, sin abreviaturas, dirigidas al paciente de «usted».",
        },
      },
    ),
    section(
      { key: "medications", kind: "medications", style: "bullets", verbosity: "concise" },
      {
        en: {
          title: "Your medicines",
          instructions: "Each medicine with how much, how often and for how long, as prescribed today.",
        },
        fr: {
          title: "Vos médicaments",
          instructions: "Chaque médicament avec la dose, la fréquence et la durée, tels que prescrits aujourd'hui.",
        },
        es: {
          title: "Sus medicamentos",
          instructions: "Cada medicamento con cuánto, cada cuánto y durante cuánto tiempo, según lo prescrito hoy.",
        },
      },
    ),
    section(
      { key: "self_care", kind: "patient_instructions", style: "bullets" },
      {
        en: { title: "What to do at home" },
        fr: { title: "Ce qu'il faut faire à la maison" },
        es: { title: "Qué hacer en casa" },
      },
    ),
    section(
      { key: "warning_signs", kind: "patient_instructions", header: "always", verbosity: "concise" },
      {
        en: {
          title: "When to call us",
          fixedText:
            "Call us or seek urgent care if your symptoms get worse, or if you have a high fever, severe pain, heavy bleeding or difficulty breathing.",
        },
        fr: {
          title: "Quand nous appeler",
          fixedText:
            "Appelez-nous ou consultez en urgence si vos symptômes s'aggravent, ou en cas de forte fièvre, de douleur intense, de saignement abondant ou de difficulté à respirer.",
        },
        es: {
          title: "Cuándo llamarnos",
          fixedText:
            "Llámenos o acuda a urgencias si sus síntomas empeoran, o si tiene fiebre alta, dolor intenso, sangrado abundante o dificultad para respirar.",
        },
      },
    ),
    section(
      { key: "follow_up", kind: "plan", verbosity: "concise" },
      {
        en: { title: "Next appointment", placeholders: ["follow-up date"] },
        fr: { title: "Prochain rendez-vous", placeholders: ["date du suivi"] },
        es: { title: "Próxima cita", placeholders: ["fecha de seguimiento"] },
      },
    ),
  ],
};
