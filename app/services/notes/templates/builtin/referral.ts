import { type BuiltinTemplate, section } from "./define.ts";
import { allergiesSection, medicationsSection } from "./shared-sections.ts";

export const referral: BuiltinTemplate = {
  id: "builtin:referral",
  name: { en: "Referral letter", fr: "Lettre d'adressage", es: "Carta de derivación" },
  description: {
    en: "A letter to a colleague: the question asked, the relevant history, findings and current treatment.",
    fr: "Courrier à un confrère : la question posée, les antécédents utiles, les constatations et le traitement en cours.",
    es: "Carta a un colega: la pregunta planteada, los antecedentes relevantes, los hallazgos y el tratamiento actual.",
  },
  sections: [
    section(
      { key: "salutation", kind: "other", header: "never", verbosity: "concise" },
      {
        en: { title: "Salutation", fixedText: "Dear colleague," },
        fr: { title: "Formule d'appel", fixedText: "Cher confrère, chère consœur," },
        es: { title: "Saludo", fixedText: "Estimado/a colega:" },
      },
    ),
    section(
      { key: "reason", kind: "referral", header: "always" },
      {
        en: {
          title: "Reason for referral",
          placeholders: ["specialty"],
          instructions: "What the patient is referred for and the question the specialist should answer; say if it is urgent.",
        },
        fr: {
          title: "Motif de l'adressage",
          placeholders: ["spécialité"],
          instructions: "Pourquoi le patient est adressé et la question posée au spécialiste ; préciser l'urgence.",
        },
        es: {
          title: "Motivo de la derivación",
          placeholders: ["especialidad"],
          instructions: "Por qué se deriva al paciente y la pregunta que debe responder el especialista; indicar si es urgente.",
        },
      },
    ),
    section(
      { key: "history", kind: "hpi" },
      {
        en: { title: "History", instructions: "The presenting problem and the relevant past history, briefly." },
        fr: { title: "Histoire clinique", instructions: "Le problème actuel et les antécédents utiles, brièvement." },
        es: { title: "Historia clínica", instructions: "El problema actual y los antecedentes relevantes, brevemente." },
      },
    ),
    medicationsSection(),
    allergiesSection(),
    section(
      { key: "findings", kind: "exam" },
      {
        en: { title: "Examination and results" },
        fr: { title: "Examen et résultats" },
        es: { title: "Exploración y resultados" },
      },
    ),
    section(
      { key: "treatment_so_far", kind: "plan" },
      {
        en: { title: "Treatment so far", instructions: "What has been tried and how the patient responded." },
        fr: { title: "Traitements entrepris", instructions: "Ce qui a été essayé et la réponse du patient." },
        es: { title: "Tratamiento hasta ahora", instructions: "Lo que se ha probado y cómo respondió el paciente." },
      },
    ),
    section(
      { key: "closing", kind: "other", header: "never", verbosity: "concise" },
      {
        en: {
          title: "Closing",
          fixedText: "Thank you for seeing this patient. Please do not hesitate to contact me if you need further information.",
        },
        fr: {
          title: "Formule de politesse",
          fixedText:
            "Je vous remercie de bien vouloir recevoir ce patient et reste à votre disposition pour tout renseignement complémentaire.",
        },
        es: {
          title: "Despedida",
          fixedText: "Gracias por atender a este paciente. Quedo a su disposición para cualquier información adicional.",
        },
      },
    ),
  ],
};
