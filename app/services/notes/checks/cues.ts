// The words contradiction detection works from (issue 27), per language, all folded (lower case,
// no diacritics: match them against `fold(text)`). Deterministic and embedded: no engine is asked.
import type { NoteLanguage } from "../model.ts";

/** A finding said the same way across sections and languages: one id, the phrasings that name it. */
export const FINDINGS: Record<string, Record<NoteLanguage, string[]>> = {
  fever: { en: ["fevers?", "febrile"], fr: ["fievres?", "febrile"], es: ["fiebres?", "febril"] },
  dyspnea: {
    en: ["shortness of breath", "short of breath", "dyspnea", "trouble breathing", "difficulty breathing", "breathless(?:ness)?"],
    fr: ["essouffl\\w*", "dyspnee", "souffle court", "mal a respirer", "difficultes? a respirer"],
    es: ["falta de aire", "me falta el aire", "disnea", "dificultad para respirar", "ahogo"],
  },
  chest_pain: {
    en: ["chest pains?"],
    fr: ["douleurs? thoraciques?", "douleurs? (?:a|dans) la poitrine", "mal a la poitrine"],
    es: ["dolor(?:es)? (?:de|en el) pecho", "dolor(?:es)? toracicos?"],
  },
  cough: { en: ["cough(?:ing)?"], fr: ["toux", "tousse"], es: ["tos"] },
  chills: { en: ["chills"], fr: ["frissons?"], es: ["escalofrios?"] },
  nausea: { en: ["nausea(?:ted)?", "nauseous"], fr: ["nausees?"], es: ["nauseas?"] },
  vomiting: { en: ["vomiting", "vomited", "throwing up"], fr: ["vomissements?", "vomi"], es: ["vomitos?", "vomitado"] },
  diarrhea: { en: ["diarrh(?:o)?ea"], fr: ["diarrhees?"], es: ["diarreas?"] },
  headache: {
    en: ["headaches?"],
    fr: ["maux de tete", "mal de tete", "cephalees?"],
    es: ["dolor(?:es)? de cabeza", "cefaleas?"],
  },
  dizziness: {
    en: ["dizz(?:y|iness)", "lightheaded(?:ness)?", "vertigo"],
    fr: ["vertiges?", "etourdissements?"],
    es: ["mareos?", "vertigos?"],
  },
  palpitations: { en: ["palpitations"], fr: ["palpitations"], es: ["palpitaciones"] },
  wheezing: { en: ["wheez(?:e|es|ing)"], fr: ["sifflements?", "respiration sifflante"], es: ["sibilancias?"] },
  rash: { en: ["rash(?:es)?"], fr: ["eruptions? cutanees?", "eruptions?"], es: ["erupcion(?:es)?", "sarpullido"] },
  // Edema of bone, brain or lung is a different finding from the swelling an exam looks for.
  edema: {
    en: [
      "(?<!marrow |bone |macular |pulmonary |cerebral |mucosal )edema",
      "leg swelling",
      "swelling (?:in|of) (?:the|his|her|your) legs",
    ],
    fr: ["oedemes?"],
    es: ["edemas?"],
  },
  syncope: {
    en: ["syncope", "passing out", "passed out", "fainting"],
    fr: ["syncopes?", "evanouissements?"],
    es: ["sincopes?", "desmayos?"],
  },
  sore_throat: { en: ["sore throat"], fr: ["mal (?:a|de) (?:la )?gorge", "maux de gorge"], es: ["dolor de garganta"] },
  abdominal_pain: {
    en: ["abdominal pain", "belly pain", "stomach pain"],
    fr: ["douleurs? abdominales?", "mal au ventre"],
    es: ["dolor(?:es)? abdominal(?:es)?", "dolor de (?:estomago|barriga)"],
  },
  blood_in_stool: {
    en: ["blood in (?:the|his|her|your) stools?", "melena"],
    fr: ["sang dans les selles", "melena"],
    es: ["sangre en (?:las )?heces", "melena"],
  },
};

/** Where a finding is said to be absent. Denial verbs tell "denies X" (the patient's word) from an examination's "no X". */
export const DENIAL: Record<NoteLanguage, RegExp> = {
  en: /\b(?:denie[sd]|deny|denying)\b/,
  fr: /\b(?:nie|nient|niant|denie)\b/,
  es: /\b(?:niega|niegan|nego|negando)\b/,
};
export const NEGATION: Record<NoteLanguage, RegExp> = {
  en: /\b(?:denie[sd]|deny|denying|no|not|without|negative for|never|none|nor|free of|absence of|doesn'?t have|does not have|don'?t have|has not had|hasn'?t had|no longer)\b|\bn'?t\b/,
  fr: /\b(?:nie|nient|niant|pas|sans|aucune?|absence d[e']|ni|jamais|negatif pour|plus d[e'])\b|\bn'/,
  es: /\b(?:niega|niegan|no|sin|ningun[oa]?|nunca|ni|negativo para|ausencia de)\b/,
};
/** A finding stated as present again after a negation in the same sentence ("denies fever but reports cough"). */
export const CLAUSE_BREAK: Record<NoteLanguage, RegExp> = {
  en: /\b(?:but|however|although|though|except|yet|reports?|reporting|endorses?|complains? of|positive for|admits? to|with|has|presents? with)\b|[;:]/g,
  fr: /\b(?:mais|cependant|pourtant|sauf|signale|rapporte|decrit|se plaint d[e']|presente|avec|a)\b|[;:]/g,
  es: /\b(?:pero|sin embargo|aunque|excepto|refiere|reporta|presenta|se queja de|con|tiene)\b|[;:]/g,
};
/**
 * A finding qualified by a circumstance ("chest pain on exertion", "denies chest pain while doing
 * physical therapy") is a different claim from the bare finding: such sentences are not compared.
 */
export const QUALIFIED: Record<NoteLanguage, RegExp> = {
  en: /\b(?:while|during|on exertion|with exertion|at rest|with activity|exertional)\b/,
  fr: /\b(?:pendant|lors d[eu']|a l'effort|au repos|durant)\b/,
  es: /\b(?:durante|mientras|al esfuerzo|con el esfuerzo|en reposo)\b/,
};
/** The clinician's question copied into a note ("Tell me have he had any chest pain"): not a statement. */
export const QUESTION_LIKE: Record<NoteLanguage, RegExp> = {
  en: /^(?:tell me|have (?:he|she|you|they)|has (?:he|she)|did (?:he|she|you)|do you|does (?:he|she)|are you|any)\b|\b(?:you|your)\b/,
  fr: /^(?:dites|est-ce que|avez-vous|as-tu)\b|\b(?:vous|votre|vos)\b/,
  es: /^(?:digame|dime|ha tenido|tiene usted)\b|\b(?:usted|su)\b/,
};

/** Sentences about what may happen, what to watch for or the past: neither present nor absent now. */
export const HYPOTHETICAL: Record<NoteLanguage, RegExp> = {
  en: /\b(?:if|should|return|call|watch for|monitor|warning signs?|precautions|unless|risk|rule out|r\/o|concern for|possible|possibly|may|might|history of|family history|previous(?:ly)?|prior|last (?:year|month|week)|in the past|years? ago|months? ago|resolved|improved|improving|better|worse if|in case|counsel(?:ed|ing)|educat\w+|advised?|instructed|ask(?:ed)?|whether)\b|\?/,
  fr: /\b(?:si|en cas d[e']|surveill\w*|consulter|revenir|risque|eventuel\w*|possible|peut|pourrait|antecedents?|anterieur\w*|il y a \d+|auparavant|resolu\w*|ameliore\w*|conseill\w*|explique\w*|demande\w*)\b|\?/,
  es: /\b(?:si|en caso de|vigil\w*|acudir|regresar|volver|riesgo|posible\w*|puede|podria|antecedentes?|previ\w*|hace \d+|resuelt\w*|mejor\w*|aconsej\w*|explic\w*|pregunt\w*)\b|\?|¿/,
};

export const SIDES: Record<NoteLanguage, [left: RegExp, right: RegExp, both: RegExp]> = {
  en: [/\bleft\b|\blt\b/, /\bright\b|\brt\b/, /\b(?:bilateral(?:ly)?|both|left and right|right and left)\b/],
  fr: [/\bgauches?\b/, /\bdroite?s?\b/, /\b(?:bilaterale?s?|des deux|les deux|droite? et gauche|gauche et droite?)\b/],
  es: [
    /\bizquierd[oa]s?\b/,
    /\bderech[oa]s?\b/,
    /\b(?:bilateral(?:es)?|ambos|ambas|derech[oa] e izquierd[oa]|izquierd[oa] y derech[oa])\b/,
  ],
};
/** Body parts that have a side; a finding word in the same sentence makes the side a claim. */
export const BODY_PARTS: Record<string, Record<NoteLanguage, string>> = {
  knee: { en: "knees?", fr: "genoux?", es: "rodillas?" },
  hip: { en: "hips?", fr: "hanches?", es: "caderas?" },
  shoulder: { en: "shoulders?", fr: "epaules?", es: "hombros?" },
  ankle: { en: "ankles?", fr: "chevilles?", es: "tobillos?" },
  wrist: { en: "wrists?", fr: "poignets?", es: "munecas?" },
  elbow: { en: "elbows?", fr: "coudes?", es: "codos?" },
  ear: { en: "ears?", fr: "oreilles?", es: "oidos?|orejas?" },
  eye: { en: "eyes?", fr: "yeux|oeil", es: "ojos?" },
  lung: { en: "lungs?", fr: "poumons?", es: "pulmon(?:es)?" },
  breast: { en: "breasts?", fr: "seins?", es: "mamas?|senos?" },
  kidney: { en: "kidneys?|flank", fr: "reins?|flanc", es: "rinon(?:es)?|flanco" },
  foot: { en: "foot|feet", fr: "pieds?", es: "pies?" },
  hand: { en: "hands?", fr: "mains?", es: "manos?" },
  arm: { en: "arms?", fr: "bras", es: "brazos?" },
  leg: { en: "legs?", fr: "jambes?", es: "piernas?" },
};
export const FINDING_WORD: Record<NoteLanguage, RegExp> = {
  en: /\b(?:pain|painful|swelling|swollen|tender(?:ness)?|fracture|injury|injured|sprain|effusion|crackles|rales|mass|lump|otitis|infection|weakness|numbness|bruis\w+|laceration)\b/,
  fr: /\b(?:douleurs?|douloureu\w+|gonfle\w*|gonflement|oedeme|fracture|entorse|blessure|epanchement|crepitants|masse|otite|infection|faiblesse|engourdi\w*|hematome)\b/,
  es: /\b(?:dolor(?:es)?|dolorosa?|hinchad[oa]|hinchazon|inflamad[oa]|fractura|esguince|lesion|derrame|crepitantes|masa|bulto|otitis|infeccion|debilidad|entumecimiento|moreton|hematoma)\b/,
};

/** Allergies said to be none ("NKDA", "allergic to anything" as the garbled "not allergic to anything"). */
export const NO_ALLERGY: Record<NoteLanguage, RegExp> = {
  en: /\b(?:nkda|nka|no known (?:drug )?allergies|no (?:drug )?allergies|denies (?:any )?(?:drug )?allergies|not allergic|allergic to (?:anything|nothing)|allergies: none|none known)\b/,
  fr: /\b(?:aucune allergie|pas d'allergies?|pas allergique|allergique a rien|allergique a tout|sans allergie|nie (?:toute )?allergie)\b/,
  es: /\b(?:sin alergias|no tiene alergias|no (?:es|soy) alergic[oa]|ninguna alergia|alergic[oa] a nada|niega alergias)\b/,
};
export const ALLERGY_TO: Record<NoteLanguage, RegExp> = {
  en: /\b(?:allergic to|allergy to|allergies to|allergic reaction to)\s+(?!anything|nothing|any\b)([a-z][a-z\- ]{2,40})/,
  fr: /\b(?:allergique (?:a|au|aux)|allergie (?:a|au|aux))\s+(?!rien|tout)(?:l')?([a-z][a-z\- ]{2,40})/,
  es: /\b(?:alergic[oa] a(?:l)?|alergia a(?:l)?)\s+(?!nada)(?:la |el |los |las )?([a-z][a-z\- ]{2,40})/,
};

/** Words that describe a change of dose ("increase lisinopril to 20 mg"): two doses are then expected. */
export const DOSE_CHANGE: Record<NoteLanguage, RegExp> = {
  en: /\b(?:prescri\w*|increas\w*|decreas\w*|reduc\w*|titrat\w*|switch\w*|chang\w*|adjust\w*|from|instead|previously|was on|used to|stop\w*|discontinu\w*|taper\w*|double|halve|went up|go up|bump)\b/,
  fr: /\b(?:prescri\w*|augment\w*|diminu\w*|redui\w*|passer|passe|remplac\w*|change\w*|ajust\w*|de \d+|au lieu|arret\w*|avant|auparavant)\b/,
  es: /\b(?:prescri\w*|receta\w*|aument\w*|disminu\w*|reduc\w*|cambi\w*|ajust\w*|de \d+|en vez|en lugar|suspend\w*|dej\w*|antes)\b/,
};

/** Frequencies normalised to doses per day, so "daily" and "once a day" agree. */
export function perDay(frequency: string): number | null {
  const f = frequency.toLowerCase();
  const times = /(\d+) (?:times|fois|veces)/.exec(f);
  if (times) return Number(times[1]);
  const hours = /(?:every|cada) (\d+) (?:hours|horas)/.exec(f);
  if (hours) return 24 / Number(hours[1]);
  if (/twice|deux fois|dos veces/.test(f)) return 2;
  if (/three times|trois fois|tres veces/.test(f)) return 3;
  if (/four times|quatre fois|cuatro veces/.test(f)) return 4;
  if (/weekly|once a week/.test(f)) return 1 / 7;
  if (/as needed|au besoin|segun necesidad|según necesidad/.test(f)) return null;
  if (
    /once|daily|every day|a day|per day|par jour|une fois|al dia|al día|una vez|at night|at bedtime|in the morning|le soir|le matin|por la noche|por la mañana/.test(
      f,
    )
  )
    return 1;
  return null;
}
