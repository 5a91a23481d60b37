import { type BuiltinTemplate, section } from "./define.ts";
import { allergiesSection } from "./shared-sections.ts";

export const procedure: BuiltinTemplate = {
  id: "builtin:procedure",
  name: { en: "Procedure note", fr: "Compte rendu d'acte", es: "Nota de procedimiento" },
  description: {
    en: "Indication, consent, anaesthesia, the procedure step by step, findings, complications and aftercare.",
    fr: "Indication, consentement, anesthésie, déroulement de l'acte, constatations, complications et suites.",
    es: "Indicación, consentimiento, anestesia, procedimiento paso a paso, hallazgos, complicaciones y cuidados posteriores.",
  },
  sections: [
    section(
      { key: "indication", kind: "assessment", header: "always", verbosity: "concise" },
      {
        en: { title: "Indication", instructions: "The diagnosis or reason the procedure was performed." },
        fr: { title: "Indication", instructions: "Le diagnostic ou la raison de l'acte." },
        es: { title: "Indicación", instructions: "El diagnóstico o motivo por el que se realizó el procedimiento." },
      },
    ),
    allergiesSection(),
    section(
      { key: "consent", kind: "procedure", header: "always", verbosity: "concise" },
      {
        en: {
          title: "Consent",
          fixedText:
            "The procedure, its risks, benefits and alternatives were explained to the patient, who had the opportunity to ask questions and gave consent.",
        },
        fr: {
          title: "Consentement",
          fixedText:
            "L'acte, ses risques, ses bénéfices et les alternatives ont été expliqués au patient, qui a pu poser ses questions et a donné son consentement.",
        },
        es: {
          title: "Consentimiento",
          fixedText:
            "Se explicaron al paciente el procedimiento, sus riesgos, beneficios y alternativas; tuvo ocasión de preguntar y dio su consentimiento.",
        },
      },
    ),
    section(
      { key: "anaesthesia", kind: "procedure", verbosity: "concise" },
      {
        en: { title: "Anaesthesia", placeholders: ["anaesthetic", "dose", "technique"] },
        fr: { title: "Anesthésie", placeholders: ["anesthésique", "dose", "technique"] },
        es: { title: "Anestesia", placeholders: ["anestésico", "dosis", "técnica"] },
      },
    ),
    section(
      { key: "procedure", kind: "procedure", header: "always", verbosity: "detailed" },
      {
        en: {
          title: "Procedure",
          placeholders: ["site or tooth number", "materials"],
          instructions: "Steps in the order performed, with the site, instruments and materials named.",
        },
        fr: {
          title: "Déroulement",
          placeholders: ["site ou numéro de dent", "matériaux"],
          instructions: "Étapes dans l'ordre de réalisation, avec le site, les instruments et les matériaux cités.",
        },
        es: {
          title: "Procedimiento",
          placeholders: ["zona o número de diente", "materiales"],
          instructions: "Pasos en el orden realizado, con la zona, el instrumental y los materiales mencionados.",
        },
      },
    ),
    section(
      { key: "findings", kind: "exam", verbosity: "concise" },
      {
        en: { title: "Findings" },
        fr: { title: "Constatations" },
        es: { title: "Hallazgos" },
      },
    ),
    section(
      { key: "complications", kind: "procedure", verbosity: "concise" },
      {
        en: {
          title: "Complications",
          placeholders: ["estimated blood loss"],
          instructions: "Only complications or their absence as stated.",
        },
        fr: {
          title: "Complications",
          placeholders: ["pertes sanguines estimées"],
          instructions: "Uniquement les complications, ou leur absence, telles qu'énoncées.",
        },
        es: {
          title: "Complicaciones",
          placeholders: ["pérdida hemática estimada"],
          instructions: "Solo las complicaciones, o su ausencia, tal como se dijeron.",
        },
      },
    ),
    section(
      { key: "aftercare", kind: "plan", style: "bullets" },
      {
        en: {
          title: "Aftercare and follow-up",
          instructions: "Post-operative instructions, prescriptions with dose and the follow-up appointment.",
        },
        fr: {
          title: "Suites et suivi",
          instructions: "Consignes post-opératoires, prescriptions avec posologie et rendez-vous de contrôle.",
        },
        es: {
          title: "Cuidados posteriores y seguimiento",
          instructions: "Instrucciones postoperatorias, prescripciones con dosis y cita de control.",
        },
      },
    ),
  ],
};
