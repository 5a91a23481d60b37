import type { NoteLanguage, NoteTemplate, TemplateSection } from "#app/services/notes/model.ts";

export function section(
  key: string,
  title: string,
  kind: TemplateSection["kind"],
  extra: Partial<TemplateSection> = {},
): TemplateSection {
  return { key, title, kind, header: "with_content", style: "prose", verbosity: "standard", persistent: false, ...extra };
}

export function template(language: NoteLanguage, sections: TemplateSection[]): NoteTemplate {
  return { id: "test:template", name: "Test", language, sections };
}

export const SOAP_EN = template("en", [
  section("cc", "Chief complaint", "chief_complaint"),
  section("hpi", "History of present illness", "hpi"),
  section("ros", "Review of systems", "ros", { style: "bullets" }),
  section("meds", "Medications", "medications", { style: "bullets" }),
  section("allergies", "Allergies", "allergies"),
  section("exam", "Exam", "exam"),
  section("results", "Results", "results"),
  section("assessment", "Assessment", "assessment"),
  section("plan", "Plan", "plan", { style: "bullets" }),
]);

export const CHEST_PAIN_EN = `[doctor] hi mr. smith , what brings you in today ?
[patient] i've had chest pain for three days , um , it gets worse when i climb stairs .
[doctor] any fever or shortness of breath ?
[patient] no .
[doctor] are you taking any medications ?
[patient] i take lisinopril twenty milligrams daily and metformin 500 mg twice a day .
[doctor] any allergies ?
[patient] i'm allergic to penicillin .
[doctor] your blood pressure today is 150 over 90 and your heart rate is 88 .
[doctor] on exam , your lungs are clear and i hear no murmur .
[doctor] i think this is likely angina . i'm going to order an ekg and a stress test , and i want you to start aspirin 81 mg daily .`;

export const BACK_PAIN_FR = `[médecin] bonjour madame , qu'est-ce qui vous amène aujourd'hui ?
[patiente] j'ai mal au dos depuis deux semaines , surtout le matin .
[médecin] avez-vous de la fièvre ou des nausées ?
[patiente] non .
[patiente] je prends du paracétamol 1000 mg trois fois par jour mais ça ne marche pas .
[médecin] votre tension est à 130 sur 80 .
[médecin] à l'examen , il y a une douleur à la palpation des muscles lombaires .
[médecin] je pense qu'il s'agit d'une lombalgie mécanique . je vous prescris de l'ibuprofène 400 mg et des séances de kinésithérapie .`;

export const SORE_THROAT_ES = `[médico] buenos días , ¿qué le trae por aquí ?
[paciente] tengo dolor de cabeza desde hace tres días y me duele la garganta .
[médico] ¿tiene fiebre o tos ?
[paciente] no .
[paciente] tomo ibuprofeno 600 mg cada 8 horas .
[médico] su presión arterial es 120 sobre 75 .
[médico] en la exploración , la garganta está enrojecida .
[médico] creo que se trata de una faringitis viral . le recomiendo reposo , líquidos y paracetamol 1 g cada 8 horas .`;

export const DENTAL_EN = `[dentist] let's look at your teeth today .
[patient] my lower left molar has been sensitive to cold for a month .
[dentist] tooth number 19 has a large cavity on the occlusal surface .
[dentist] probing depths on tooth 19 are 5 mm with bleeding on probing , and tooth 30 is 3 mm .
[dentist] i recommend a crown on tooth 19 and a cleaning in six months .`;
