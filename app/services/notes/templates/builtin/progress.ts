import { type BuiltinTemplate, section } from "./define.ts";
import { medicationsSection, vitalsSection } from "./shared-sections.ts";

export const progress: BuiltinTemplate = {
  id: "builtin:progress",
  name: { en: "Progress note", fr: "Note d'évolution", es: "Nota de evolución" },
  description: {
    en: "A follow-up visit: what changed since last time, today's findings and the updated plan.",
    fr: "Consultation de suivi : ce qui a changé depuis la dernière fois, l'examen du jour et le plan mis à jour.",
    es: "Consulta de seguimiento: qué ha cambiado desde la última vez, hallazgos de hoy y plan actualizado.",
  },
  sections: [
    section(
      { key: "interval_history", kind: "hpi", header: "always" },
      {
        en: {
          title: "Interval history",
          instructions: "Changes since the last visit: response to treatment, side effects, adherence and new symptoms.",
        },
        fr: {
          title: "Évolution depuis la dernière consultation",
          instructions:
            "Changements depuis la dernière visite : réponse au traitement, effets indésirables, observance et nouveaux symptômes.",
        },
        es: {
          title: "Evolución desde la última visita",
          instructions:
            "Cambios desde la última visita: respuesta al tratamiento, efectos adversos, adherencia y síntomas nuevos.",
        },
      },
    ),
    section(
      { key: "problem_list", kind: "history", style: "bullets", verbosity: "concise", persistent: true },
      {
        en: {
          title: "Problem list",
          instructions: "Active problems, one per line; mark a problem resolved only when the clinician said so.",
        },
        fr: {
          title: "Liste des problèmes",
          instructions: "Problèmes actifs, un par ligne ; ne marquer un problème résolu que si le clinicien l'a dit.",
        },
        es: {
          title: "Lista de problemas",
          instructions: "Problemas activos, uno por línea; marcar un problema como resuelto solo si el clínico lo dijo.",
        },
      },
    ),
    medicationsSection(),
    vitalsSection(),
    section(
      { key: "exam", kind: "exam", verbosity: "concise" },
      {
        en: { title: "Examination", instructions: "Focused findings relevant to today's problems." },
        fr: { title: "Examen", instructions: "Constatations ciblées sur les problèmes du jour." },
        es: { title: "Exploración", instructions: "Hallazgos dirigidos a los problemas de hoy." },
      },
    ),
    section(
      { key: "results", kind: "results", style: "bullets", verbosity: "concise" },
      {
        en: { title: "Results reviewed" },
        fr: { title: "Résultats revus" },
        es: { title: "Resultados revisados" },
      },
    ),
    section(
      { key: "assessment_plan", kind: "assessment_plan", header: "always", style: "bullets" },
      {
        en: {
          title: "Assessment and plan",
          placeholders: ["follow-up interval"],
          instructions: "Status of each problem (improving, stable, worse) and what was decided.",
        },
        fr: {
          title: "Évaluation et plan",
          placeholders: ["délai de suivi"],
          instructions: "État de chaque problème (amélioré, stable, aggravé) et décisions prises.",
        },
        es: {
          title: "Evaluación y plan",
          placeholders: ["plazo de seguimiento"],
          instructions: "Estado de cada problema (mejor, estable, peor) y lo que se decidió.",
        },
      },
    ),
  ],
};
