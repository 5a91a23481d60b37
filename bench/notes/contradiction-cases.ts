// Crafted contradictions (issue 27), en/fr/es, one or more per kind: each case is a note (sections
// by kind) and optionally what was said, with the code that must be found. Written by hand for the
// detector's tests and bench; never tuned on ACI-Bench valid.

import type { ContradictionCode } from "#app/services/notes/checks/contradictions.ts";
import type { NoteLanguage, SectionKind } from "#app/services/notes/model.ts";

export interface CraftedCase {
  name: string;
  language: NoteLanguage;
  sections: [kind: SectionKind, sentences: string[]][];
  /** Transcript lines, "[patient] …" / "[doctor] …". */
  transcript?: string[];
  expect: ContradictionCode;
  against?: "note" | "transcript";
}

export const CRAFTED: CraftedCase[] = [
  // English
  {
    name: "demo: denies vs a little short of breath",
    language: "en",
    sections: [["hpi", ["Denies fever or shortness of breath.", "A little short of breath."]]],
    expect: "denies_reports",
  },
  {
    name: "allergic to anything vs penicillin",
    language: "en",
    sections: [
      ["hpi", ["He is allergic to anything."]],
      ["allergies", ["Penicillin (rash)"]],
    ],
    expect: "allergy",
  },
  {
    name: "NKDA vs allergic to sulfa",
    language: "en",
    sections: [
      ["allergies", ["NKDA."]],
      ["hpi", ["She is allergic to sulfa drugs."]],
    ],
    expect: "allergy",
  },
  {
    name: "denies chest pain vs reports chest pain",
    language: "en",
    sections: [
      ["ros", ["Denies chest pain."]],
      ["hpi", ["Reports intermittent chest pain for 3 days."]],
    ],
    expect: "denies_reports",
  },
  {
    name: "no edema vs edema",
    language: "en",
    sections: [["exam", ["No edema.", "2+ pitting edema in the legs."]]],
    expect: "negated_finding",
  },
  {
    name: "right vs left knee pain",
    language: "en",
    sections: [
      ["hpi", ["Right knee pain for 2 weeks."]],
      ["exam", ["Left knee tenderness over the medial joint line."]],
    ],
    expect: "laterality",
  },
  {
    name: "two lisinopril doses",
    language: "en",
    sections: [
      ["medications", ["Lisinopril 10 mg daily."]],
      ["hpi", ["He takes lisinopril 20 mg daily."]],
    ],
    expect: "dose",
  },
  {
    name: "metformin once vs twice",
    language: "en",
    sections: [
      ["medications", ["Metformin 500 mg twice a day."]],
      ["assessment", ["Diabetes on metformin 500 mg once a day."]],
    ],
    expect: "frequency",
  },
  {
    name: "note NKDA, patient named an allergy",
    language: "en",
    sections: [["allergies", ["No known drug allergies."]]],
    transcript: ["[doctor] Any allergies?", "[patient] Yes, I'm allergic to penicillin, I get hives."],
    expect: "allergy",
    against: "transcript",
  },
  {
    name: "note denies, patient reported",
    language: "en",
    sections: [["ros", ["Denies cough."]]],
    transcript: ["[doctor] How have you been?", "[patient] I've had a cough for a week now."],
    expect: "denies_reports",
    against: "transcript",
  },
  {
    name: "note dose differs from the one said",
    language: "en",
    sections: [["medications", ["Atorvastatin 40 mg daily."]]],
    transcript: ["[patient] I take atorvastatin 20 mg every night."],
    expect: "dose",
    against: "transcript",
  },
  // French
  {
    name: "fr: nie la fièvre vs fièvre",
    language: "fr",
    sections: [["hpi", ["Nie toute fièvre.", "Il a de la fièvre depuis hier."]]],
    expect: "denies_reports",
  },
  {
    name: "fr: aucune allergie vs pénicilline",
    language: "fr",
    sections: [
      ["allergies", ["Aucune allergie connue."]],
      ["hpi", ["Allergique à la pénicilline."]],
    ],
    expect: "allergy",
  },
  {
    name: "fr: genou droit vs gauche",
    language: "fr",
    sections: [
      ["hpi", ["Douleur au genou droit."]],
      ["exam", ["Genou gauche douloureux à la palpation."]],
    ],
    expect: "laterality",
  },
  {
    name: "fr: pas d'essoufflement vs essoufflé",
    language: "fr",
    sections: [
      ["ros", ["Pas d'essoufflement."]],
      ["hpi", ["Elle est un peu essoufflée depuis hier."]],
    ],
    expect: "negated_finding",
  },
  {
    name: "fr: deux doses de paracétamol",
    language: "fr",
    sections: [
      ["medications", ["Paracétamol 500 mg trois fois par jour."]],
      ["hpi", ["Prend du paracétamol 1000 mg trois fois par jour."]],
    ],
    expect: "dose",
  },
  {
    name: "fr: deux fréquences",
    language: "fr",
    sections: [
      ["medications", ["Amoxicilline 1 g trois fois par jour."]],
      ["assessment", ["Otite traitée par amoxicilline 1 g deux fois par jour."]],
    ],
    expect: "frequency",
  },
  {
    name: "fr: note sans allergie, patient allergique",
    language: "fr",
    sections: [["allergies", ["Pas d'allergie."]]],
    transcript: ["[patient] Je suis allergique à l'amoxicilline."],
    expect: "allergy",
    against: "transcript",
  },
  // Spanish
  {
    name: "es: niega fiebre vs refiere fiebre",
    language: "es",
    sections: [
      ["ros", ["Niega fiebre."]],
      ["hpi", ["Refiere fiebre desde ayer."]],
    ],
    expect: "denies_reports",
  },
  {
    name: "es: sin alergias vs alérgico",
    language: "es",
    sections: [
      ["allergies", ["Sin alergias conocidas."]],
      ["hpi", ["Es alérgico a la penicilina."]],
    ],
    expect: "allergy",
  },
  {
    name: "es: rodilla derecha vs izquierda",
    language: "es",
    sections: [
      ["hpi", ["Dolor en la rodilla derecha."]],
      ["exam", ["Rodilla izquierda inflamada y dolorosa."]],
    ],
    expect: "laterality",
  },
  {
    name: "es: sin tos vs tos",
    language: "es",
    sections: [
      ["ros", ["Sin tos."]],
      ["hpi", ["Tos seca desde hace una semana."]],
    ],
    expect: "negated_finding",
  },
  {
    name: "es: dos dosis de ibuprofeno",
    language: "es",
    sections: [
      ["medications", ["Ibuprofeno 400 mg cada 8 horas."]],
      ["hpi", ["Toma ibuprofeno 600 mg cada 8 horas."]],
    ],
    expect: "dose",
  },
  {
    name: "es: dos frecuencias",
    language: "es",
    sections: [
      ["medications", ["Omeprazol 20 mg una vez al día."]],
      ["assessment", ["Reflujo con omeprazol 20 mg dos veces al día."]],
    ],
    expect: "frequency",
  },
  {
    name: "es: nota niega, paciente refiere",
    language: "es",
    sections: [["ros", ["Niega náuseas."]]],
    transcript: ["[patient] Tengo náuseas todas las mañanas."],
    expect: "denies_reports",
    against: "transcript",
  },
];

/** Clean notes that must raise nothing: the same findings said once, consistently, or only in a plan. */
export const CLEAN: Omit<CraftedCase, "expect" | "against">[] = [
  {
    name: "denies one thing, reports another",
    language: "en",
    sections: [
      ["hpi", ["Reports cough for 2 weeks, but denies fever."]],
      ["ros", ["Positive for cough.", "Negative for fever and chills."]],
    ],
  },
  {
    name: "plan mentions a denied finding",
    language: "en",
    sections: [
      ["ros", ["Denies chest pain."]],
      ["plan", ["Return if chest pain develops."]],
    ],
  },
  {
    name: "dose change in the plan",
    language: "en",
    sections: [
      ["medications", ["Lisinopril 10 mg daily."]],
      ["assessment_plan", ["Increase lisinopril to 20 mg daily."]],
    ],
  },
  {
    name: "bilateral knees",
    language: "en",
    sections: [
      ["hpi", ["Bilateral knee pain, worse on the right."]],
      ["exam", ["Right knee effusion."]],
    ],
  },
  {
    name: "fr: cohérent",
    language: "fr",
    sections: [
      ["hpi", ["Toux depuis trois jours, sans fièvre."]],
      ["ros", ["Pas de fièvre."]],
    ],
  },
  {
    name: "es: coherente",
    language: "es",
    sections: [
      ["hpi", ["Tos desde hace tres días, sin fiebre."]],
      ["ros", ["Niega fiebre."]],
    ],
  },
];
