// French rewriting rules (see rewrite.ts). The patient is "la patiente", "le patient", "il" or
// "elle"; the clinician still says "je", "nous", "on".
import type { LanguageRewriter, Rule } from "./rewrite.ts";
import { u } from "./rewrite-unicode.ts";

const S = "(?:la patiente|le patient|il|elle)";
const LABELS: [RegExp, string][] = [
  [u("^(?:cardiaque|cœur|coeur|du cœur|du coeur)$"), "Cœur"],
  [u("^(?:pulmonaire|poumons|des poumons|thoracique)$"), "Poumons"],
  [u("^(?:abdominale|abdomen|de l'abdomen|du ventre|ventre)$"), "Abdomen"],
  [u("^(?:du cou|cou|cervical)$"), "Cou"],
  [u("^(?:de la gorge|gorge)$"), "Gorge"],
  [u("^(?:neurologique)$"), "Neurologique"],
  [u("^(?:cutané|de la peau|peau)$"), "Peau"],
];
const PART =
  "(?:cardiaque|pulmonaire|abdominale|neurologique|cutané|thoracique|du cœur|du coeur|des poumons|de l'abdomen|du ventre|du cou|de la gorge|de la peau|du genou(?: droit| gauche)?|de la cheville(?: droite| gauche)?|de l'épaule(?: droite| gauche)?|du dos|du rachis|de la hanche(?: droite| gauche)?|du poignet(?: droit| gauche)?)";
const ORGAN =
  "(?:cœur|coeur|poumons|ventre|abdomen|gorge|cou|peau|genou|cheville|épaule|dos|hanche|poignet|amygdales|tympans?|oreilles?|mollets?|jambes?)";

function label(part: string): string {
  const p = part.toLowerCase().trim();
  for (const [re, name] of LABELS) if (re.test(p)) return name;
  const bare = p.replace(/^(?:du |de la |de l'|des |le |la |les |l'|son |sa |ses |vos |votre )/, "");
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

const ADJ: Record<string, string> = {
  fatigué: "une fatigue",
  fatiguée: "une fatigue",
  épuisé: "une fatigue",
  épuisée: "une fatigue",
  essoufflé: "un essoufflement",
  essoufflée: "un essoufflement",
  nauséeux: "des nausées",
  nauséeuse: "des nausées",
  étourdi: "des vertiges",
  étourdie: "des vertiges",
  constipé: "une constipation",
  constipée: "une constipation",
  enrhumé: "un rhume",
  enrhumée: "un rhume",
  angoissé: "une anxiété",
  angoissée: "une anxiété",
};

/** First person present → infinitive for the verbs of a plan ("je prescris" → "prescrire"). */
const INFINITIVE: Record<string, string> = {
  prescris: "prescrire",
  recommande: "recommander",
  conseille: "conseiller",
  propose: "proposer",
  demande: "demander",
  augmente: "augmenter",
  diminue: "diminuer",
  arrête: "arrêter",
  continue: "poursuivre",
  poursuis: "poursuivre",
  mets: "mettre",
  adresse: "adresser",
  oriente: "orienter",
  commence: "commencer",
  introduis: "introduire",
  programme: "programmer",
  fais: "faire",
  envoie: "envoyer",
};

/** The patient addressed in a plan (vous) → the infinitive of an instruction. */
const IMPERATIVE: Record<string, string> = {
  revenez: "revenir",
  appelez: "appeler",
  prenez: "prendre",
  évitez: "éviter",
  buvez: "boire",
  continuez: "continuer",
  arrêtez: "arrêter",
  surélevez: "surélever",
  faites: "faire",
  mettez: "mettre",
  appliquez: "appliquer",
  consultez: "consulter",
  surveillez: "surveiller",
  marchez: "marcher",
  reposez: "se reposer",
};

const ANY: Rule[] = [
  [
    u(
      "\\b(?:euh+|heu+|ben|bah|hein|du coup|en fait|genre|disons|voilà|enfin|quoi|tu vois|vous voyez|vous savez|tu sais|comment dire|on va dire|bon|eh bien|ma foi|franchement|honnêtement|en gros)\\b,?\\s*",
      "giu",
    ),
    "",
  ],
  [u("^(?:et|mais|donc|alors|puis|ensuite|d'accord|ok|très bien|parfait)\\b,?\\s*"), ""],
  [u("^(?:oui|non),\\s*"), ""],
  [u("\\b(vois|note|entends|retrouve|pense|crois|sais|dirais)\\s*,\\s+", "giu"), "$1 "],
  [u(",\\s*(?:donc|et|mais)\\s*$"), ""],
  [u(",?\\s*(?:donc |et )?(?:c'est|ce qui est) (?:bien|bon|rassurant|parfait|super|une bonne nouvelle)\\b", "giu"), ""],
  [u("\\b(le|la|les|un|une|des|de|du|à|au|aux|pour|avec|sur|son|sa|ses|est|a|sont)\\s*,\\s+", "giu"), "$1 "],
  [/([\p{L}\d])-(?=\s|$)/gu, "$1"],
  [u("\\bune fois par jour\\b|\\btous les jours\\b|\\bchaque jour\\b", "giu"), "par jour"],
  [u("\\b(\\d)\\s*sur\\s*6\\b", "giu"), "$1/6"],
];

const REPORTED: Rule[] = [
  // "Ça fait 3 jours que j'ai de la fièvre" / "Depuis 2 jours, j'ai mal…": the duration goes after
  // the complaint, which the rules below then read ("signale de la fièvre depuis 3 jours").
  [u(`^(?:ça|cela) fait (.{1,30}?) que (${S} .+)$`), (_m, since: string, rest: string) => `${rest} depuis ${since}`],
  [u(`^(depuis [^,]{1,30}),\\s*(${S} .+)$`), (_m, since: string, rest: string) => `${rest} ${since}`],
  [
    u(`^${S} (?:a|avait) (?:très |un peu |toujours )?mal (au|à la|aux|à l'|à l’)\\s*`),
    (_m, to: string) => `douleur ${to}${/'|’/.test(to) ? "" : " "}`,
  ],
  [
    u(
      `^${S} (?:se sent|est|était|se sentait) (?:très |un peu |assez |souvent |tout le temps )?(${Object.keys(ADJ).join("|")})\\b`,
    ),
    (_m, a: string) => `signale ${ADJ[a.toLowerCase()] ?? a}`,
  ],
  [
    u(`^${S} (?:ne |n')(?:a|avait|ressent|ressens|ressentait|présente|remarque) (?:pas|jamais|plus) (?:eu )?(de |d'|d’)`),
    (_m, de: string) => `pas ${de}`,
  ],
  [
    u(
      `^${S} (?:a|avait|ressent|présente|remarque|a remarqué|a eu|a ressenti) (?:aussi |encore |parfois |souvent )?(?=(?:de la |du |des |une |un |de l'|quelques )\\S)`,
    ),
    "signale ",
  ],
  [u(`^(?:je pense que |je crois que )?${S} (?:pense|croit|dit|trouve) que (?=${S}\\b)`), ""],
  [u("^(?:peut-être|probablement|je dirais)\\s+(?=(?:depuis|environ|vers|à peu près|\\d))"), ""],
  [u(`^${S} (?=[\\p{Ll}])`), ""],
];

const EXAM: Rule[] = [
  [
    u(`^(?:à|a) l'(?:auscultation|examen) ${PART},?\\s*`),
    (m) => `${label(m.replace(/^(?:à|a) l'(?:auscultation|examen)\s+/iu, "").replace(/[,\s]+$/u, ""))} : `,
  ],
  [u("^(?:à|a) l'(?:examen clinique|examen physique|examen|auscultation|inspection)(?: aujourd'hui)?(?:,\\s*|$)"), ""],
  [u("^(?:à|a) la palpation,\\s*"), ""],
  // The passé composé of the finding verbs: "je n'ai pas retrouvé de souffle", "j'ai noté une rougeur".
  [
    u(
      "(^|:\\s)(?:je n'ai|j'ai) (?:pas|jamais) (?:retrouvé|entendu|noté|trouvé|vu|palpé|perçu|constaté|observé|senti|remarqué) (?:de |d')?",
    ),
    "$1pas de ",
  ],
  [u("(^|:\\s)je n'ai (?:retrouvé|entendu|noté|trouvé|vu|palpé|perçu|constaté|observé|senti|remarqué) (aucune?) "), "$1$2 "],
  [
    u(
      "(^|:\\s)j'ai (?:bien |aussi |également )?(?:retrouvé|entendu|noté|trouvé|vu|palpé|perçu|constaté|observé|senti|remarqué) (?:qu'il y a )?(?:un |une |des |quelques |du |de la )?",
    ),
    "$1",
  ],
  [u("^(?:lors de|pendant) l'examen,?\\s*"), ""],
  [
    u(`^(?:à|a) la palpation ${PART},?\\s*`),
    (m) => `${label(m.replace(/^(?:à|a) la palpation\s+/iu, "").replace(/[,\s]+$/u, ""))} : `,
  ],
  [
    u(`^(?:les |le |la |l'|ses |son |sa |vos |votre )(${ORGAN}) (?:est|sont|semble|semblent|paraît|paraissent) `),
    (_m, organ: string) => `${label(organ)} : `,
  ],
  [
    u(
      "(^|:\\s)(?:je |j')(?:n'|ne )?(?:entends|retrouve|note|trouve|vois|palpe|perçois|constate|observe|sens|remarque) (?:pas|aucun(?:e)?|plus) (?:de |d')?",
    ),
    (m, start: string) => `${start}${/aucun/u.test(m) ? `${m.match(/aucune?/u)?.[0]} ` : "pas de "}`,
  ],
  [
    u(
      "(^|:\\s)(?:je |j')(?:entends|retrouve|note|trouve|vois|palpe|perçois|constate|observe|sens|remarque) (?:bien |aussi |également )?(?:qu'il y a )?(?:un |une |des |quelques |du |de la )?",
    ),
    "$1",
  ],
  [u("(^|:\\s)il n'y a pas (?:de |d')"), "$1pas de "],
  [u("(^|:\\s)il y a (?:un |une |des |quelques |du |de la )?"), "$1"],
  [u("\\bpas de (?=[aeiouyhéèêœ])", "giu"), "pas d'"],
];

const RESULTS: Rule[] = [
  [u("^(?:son|sa|ses|votre|vos) "), ""],
  [u("^(?:on a|nous avons|j'ai) (?:fait|réalisé|fait faire|obtenu) (?:une |un |la |le |les |l')?"), ""],
  [
    u(
      "^(?:j'ai|nous avons|on a) (?:bien )?(?:regardé|vu|reçu|revu) (?:les résultats d[eu] |le résultat d[eu] )?(?:votre |vos |son |sa |ses |le |la |les )?",
    ),
    "",
  ],
  [u(",?\\s*(?:et )?(?:il|elle|ça|cela) (montre|montrait|retrouve|révèle)(?: que)?\\b", "giu"), " $1"],
  [u("^([^,]{2,40}?)(?:,\\s*|\\s+et\\s+)il n'y a pas (?:de |d')"), "$1: pas de "],
  [u("^([^,]{2,40}?)(?:,\\s*|\\s+et\\s+)il y a (?:un |une |des )?"), "$1: "],
  [u("\\bpas de (?=[aeiouyhéèêœ])", "giu"), "pas d'"],
];

const ASSESSMENT: Rule[] = [
  [u("^(?:je pense|je crois|il me semble) qu'il s'agit (?:probablement )?d(?:'|’)(?:une? )?"), "probable "],
  [u("^il s'agit (?:probablement )?d(?:'|’)(?:une? )?"), ""],
  [u("^(?:je pense|je crois|il me semble) que c'est (?:une? )?"), "probable "],
  [u("^(?:je pense|je crois|il me semble) (?:que |qu')"), ""],
  [u("^(?:ça|cela) ressemble à |^on dirait "), "évoque "],
  [
    u("^je suis (?:un peu |assez |très )?inquiet(?:e)? (?:pour|d'|de|qu'il s'agisse d') ?(?:une |un |la |le |l')?"),
    "suspicion de ",
  ],
  [u("\\bsuspicion de (?=[aeiouyhéèêœ])", "giu"), "suspicion d'"],
];

const PLAN: Rule[] = [
  [
    u(
      "^(?:je voudrais|je veux|j'aimerais|il faut|il faudrait) que (?:vous |la patiente |le patient |il |elle )?(fassiez|fasse|preniez|prenne|buviez|boive|évitiez|évite|marchiez|marche|reveniez|revienne)\\b",
    ),
    (_m, v: string) =>
      ({
        fassiez: "faire",
        fasse: "faire",
        preniez: "prendre",
        prenne: "prendre",
        buviez: "boire",
        boive: "boire",
        évitiez: "éviter",
        évite: "éviter",
        marchiez: "marcher",
        marche: "marcher",
        reveniez: "revenir",
        revienne: "revenir",
      })[v.toLowerCase()] ?? v,
  ],
  [
    u(
      "^(?:je vais|nous allons|on va|je voudrais|je veux|j'aimerais|je souhaite|il faudrait|il faut) (?:donc |aussi |également )?(?:vous |lui |le |la |les |l')?(?:donc |aussi )?",
    ),
    "",
  ],
  [
    u(`^(?:je |nous |on )(?:vous |lui |le |la )?(${Object.keys(INFINITIVE).join("|")})\\b`),
    (_m, v: string) => INFINITIVE[v.toLowerCase()] ?? v,
  ],
  [u("^(?:vous devez|vous allez devoir|il faut que vous|vous pouvez|il faudra|vous devrez) (?:aussi |bien )?"), ""],
  [
    u(
      "^(?:je (?:le |la |vous )?(?:revois|reverrai)|nous (?:le |la |vous )?reverrons|revoir (?:le |la |la patiente |le patient )?|on se revoit|revenir|revenez) (?:me voir )?(dans|en)\\b",
    ),
    "contrôle $1",
  ],
  // The patient addressed ("revenez me voir", "appelez-nous") → the instruction in the infinitive.
  [
    u(`(^|\\bet )(${Object.keys(IMPERATIVE).join("|")})(?:-(?:nous|moi|vous))?\\b`, "giu"),
    (_m, and: string, v: string) => `${and}${IMPERATIVE[v.toLowerCase()] ?? v}`,
  ],
  [u("^faire (?:une |l')?ordonnance (?:pour|de) "), "prescrire "],
  [u("\\b(revenir|reconsulter) me voir\\b"), "$1"],
  [u("\\bvous\\b", "giu"), ""],
];

const TIDY: Rule[] = [
  [/\s+,/g, ","],
  [/,\s*,/g, ","],
  [/ {2,}/g, " "],
];

const VERB = u(
  "\\b(?:est|sont|était|étaient|a|ont|avait|avaient|sera|seront|fait|font|prend|prennent|signale|rapporte|décrit|présente|nie|se plaint|sent|ressent|tousse|dort|mange|boit|fume|travaille|marche|vit|montre|retrouve|révèle|poursuivre|prescrire|arrêter|augmenter|diminuer|commencer|demander|adresser|contrôler|revoir|faire|prendre|éviter|recommander|conseiller|proposer|programmer|introduire|mettre|évoque|semble|peut|doit|va|vont)\\b",
  "iu",
);

export const REWRITE_FR: LanguageRewriter = {
  drop: {
    any: [
      u(
        "^(?:je vais|on va|nous allons) (?:vous |l'|le |la )?(?:examiner|ausculter|regarder|jeter un (?:petit )?(?:œil|coup d'œil))\\b[^,]*$",
      ),
      u("^(?:d'accord|très bien|parfait|merci|bon)$"),
    ],
  },
  rules: { any: ANY, exam: EXAM, results: RESULTS, assessment: ASSESSMENT, plan: PLAN, history: [] },
  reported: REPORTED,
  tidy: TIDY,
  hasVerb: (text) => VERB.test(text) || u("\\b[\\p{L}]{3,}(?:er|ir|é|ée|és|ées)\\b", "iu").test(text),
};
