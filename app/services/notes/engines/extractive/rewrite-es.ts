// Spanish rewriting rules (see rewrite.ts). The patient's words are already in the third person
// without a subject ("tiene dolor"); the clinician still says "voy a", "le receto".
import type { LanguageRewriter, Rule } from "./rewrite.ts";
import { u } from "./rewrite-unicode.ts";

const LABELS: [RegExp, string][] = [
  [u("^(?:cardíaca|cardiaca|corazón)$"), "Corazón"],
  [u("^(?:pulmonar|pulmones)$"), "Pulmones"],
  [u("^(?:abdominal|abdomen|barriga|vientre)$"), "Abdomen"],
];
const ORGAN =
  "(?:garganta|pulmones|corazón|abdomen|barriga|vientre|rodilla|tobillo|piel|cuello|oídos?|hombro|espalda|cadera|muñeca|amígdalas|tímpanos?|pierna|piernas|herida)";

function label(part: string): string {
  const p = part.toLowerCase().trim();
  for (const [re, name] of LABELS) if (re.test(p)) return name;
  return p.charAt(0).toUpperCase() + p.slice(1);
}

const ADJ: Record<string, string> = {
  cansado: "cansancio",
  cansada: "cansancio",
  agotado: "cansancio",
  agotada: "cansancio",
  mareado: "mareo",
  mareada: "mareo",
  ansioso: "ansiedad",
  ansiosa: "ansiedad",
  estreñido: "estreñimiento",
  estreñida: "estreñimiento",
  congestionado: "congestión",
  congestionada: "congestión",
  deprimido: "ánimo bajo",
  deprimida: "ánimo bajo",
};

/** First person present → infinitive for the verbs of a plan ("le receto" → "recetar"). */
const INFINITIVE: Record<string, string> = {
  receto: "recetar",
  prescribo: "prescribir",
  indico: "indicar",
  pido: "pedir",
  solicito: "solicitar",
  mando: "mandar",
  aumento: "aumentar",
  subo: "subir",
  bajo: "bajar",
  disminuyo: "disminuir",
  suspendo: "suspender",
  cambio: "cambiar",
  doy: "dar",
  pongo: "poner",
  derivo: "derivar",
  envío: "enviar",
  continúo: "continuar",
  mantengo: "mantener",
};

const ANY: Rule[] = [
  [
    u(
      "\\b(?:eh+|em+|este|pues|bueno|o sea|mmm+|digamos|la verdad|en realidad|sabe|sabes|mire|fíjese|vamos a ver|a ver|como que|tipo)\\b,?\\s*",
      "giu",
    ),
    "",
  ],
  [u("^(?:y|pero|entonces|luego|vale|ok|muy bien|perfecto|claro)\\b,?\\s*"), ""],
  [u("^(?:sí|si|no),\\s*"), ""],
  [u("\\b(veo|noto|escucho|encuentro|creo|pienso|digo)\\s*,\\s+", "giu"), "$1 "],
  [u(",\\s*(?:entonces|y|pero)\\s*$"), ""],
  [u(",?\\s*(?:así que |y )?(?:eso|lo cual|lo que) (?:es|está) (?:bien|bueno|muy bien|tranquilizador|perfecto)\\b", "giu"), ""],
  [u("\\b(el|la|los|las|un|una|de|del|a|al|para|con|en|su|sus|es|está|tiene)\\s*,\\s+", "giu"), "$1 "],
  [/([\p{L}\d])-(?=\s|$)/gu, "$1"],
  [u("\\buna vez al día\\b|\\btodos los días\\b|\\bcada día\\b", "giu"), "al día"],
];

const REPORTED: Rule[] = [
  // "Llevo 3 días con fiebre" / "Hace 3 días que tengo tos": the complaint, then since when.
  [
    u("^(?:llevo|lleva) (.{1,30}?) con (?:un |una |unos |unas )?(.+)$"),
    (_m, since: string, what: string) => `refiere ${what} desde hace ${since}`,
  ],
  [
    u("^hace (.{1,30}?) que (?:tengo|tiene|siento|siente|noto|nota) (?:un |una |unos |unas )?(.+)$"),
    (_m, since: string, what: string) => `refiere ${what} desde hace ${since}`,
  ],
  [u("^(?:le|me) (?:duele|duelen|dolía|dolían) (?:mucho |un poco |bastante )?(?:el |la |los |las )?"), "refiere dolor de "],
  [
    u(`^(?:se siente|está|estaba|se sentía|se encuentra) (?:muy |un poco |bastante |algo )?(${Object.keys(ADJ).join("|")})\\b`),
    (_m, a: string) => `refiere ${ADJ[a.toLowerCase()] ?? a}`,
  ],
  [u("^no (?:tiene|ha tenido|tenía|nota|ha notado|siente) (?:ningún |ninguna |nada de )?"), "niega "],
  [
    u(
      "^(?:tiene|ha tenido|tenía|nota|ha notado|siente|presenta) (?:también |a veces |mucho |mucha |algo de |un poco de )?(?:un |una |unos |unas )?",
    ),
    "refiere ",
  ],
  [u("^(?:creo que|pienso que|cree que|piensa que|dice que)\\s+"), ""],
  [u("^(?:quizás|quizá|tal vez|probablemente|diría que)\\s+(?=(?:desde|hace|unos|unas|como|alrededor|\\d))"), ""],
];

const EXAM: Rule[] = [
  [u("^(?:en|a) la exploración(?: física)?(?: de hoy)?,?\\s*|^(?:al|en el) examen(?: físico)?(?: de hoy)?,?\\s*"), ""],
  [u("^(?:a|en) la auscultación (cardíaca|cardiaca|pulmonar),?\\s*"), (_m, part: string) => `${label(part)}: `],
  [u("^(?:a|en) la palpación (?:abdominal|del abdomen),?\\s*"), "Abdomen: "],
  [u("^(?:a|en) la (?:auscultación|palpación|inspección),\\s*"), ""],
  // The perfect tense of the finding verbs: "no he encontrado ninguna masa", "he notado una inflamación".
  [
    u(
      "(^|:\\s)no (?:he|hemos) (?:visto|encontrado|apreciado|notado|palpado|oído|escuchado) (?:ningún |ninguna |nada de |signos de )?",
    ),
    "$1sin ",
  ],
  [
    u(
      "(^|:\\s)(?:he|hemos) (?:visto|encontrado|apreciado|notado|palpado|oído|escuchado) (?:también )?(?:que hay )?(?:un |una |unos |unas |algo de )?",
    ),
    "$1",
  ],
  [
    u(
      `^(?:el |la |los |las |su |sus )(${ORGAN}(?: derech[oa]| izquierd[oa])?) (?:está|están|es|son|se ve|se ven|se escucha|se escuchan|se siente|se palpa|parece|parecen) `,
    ),
    (_m, organ: string) => `${label(organ)}: `,
  ],
  [u("(^|:\\s)no (?:veo|escucho|encuentro|aprecio|noto|palpo|oigo|hay) (?:ningún |ninguna |nada de |signos de )?"), "$1sin "],
  [
    u(
      "(^|:\\s)(?:veo|escucho|encuentro|aprecio|noto|palpo|oigo) (?:también )?(?:que hay )?(?:un |una |unos |unas |algo de |cierto |cierta )?",
    ),
    "$1",
  ],
  [u("(^|:\\s)hay (?:un |una |unos |unas |algo de )?"), "$1"],
];

const RESULTS: Rule[] = [
  [u("^(?:su|sus) "), ""],
  [u("^(?:le |se le )?(?:hicimos|hemos hecho|he hecho|hice|se hizo|se ha hecho) (?:un |una |el |la |los |las )?"), ""],
  [u("^(?:he|hemos) (?:visto|revisado|recibido) (?:los resultados de |el resultado de )?(?:su |sus |el |la |los |las )?"), ""],
  [u(",?\\s*(?:y )?(?:que |lo que )?(muestra|mostró|indica|revela|reveló)(?: que)?\\b", "giu"), " $1"],
  [u("^([^,]{2,40}?)(?:,\\s*|\\s+y\\s+)no hay "), "$1: sin "],
  [u("^([^,]{2,40}?)(?:,\\s*|\\s+y\\s+)hay (?:un |una )?"), "$1: "],
];

const ASSESSMENT: Rule[] = [
  [u("^(?:creo|pienso|me parece) que (?:se trata de|es|tiene) (?:un |una )?"), "probable "],
  [u("^se trata de (?:un |una )?"), ""],
  [u("^(?:creo|pienso|me parece) que\\s+"), ""],
  [u("^parece (?:un |una )"), "probable "],
  [u("^(?:me preocupa|me inquieta) (?:que (?:sea|se trate de|tenga) )?(?:un |una |el |la )?"), "sospecha de "],
];

const SUBJUNCTIVE: Record<string, string> = {
  haga: "hacer",
  tome: "tomar",
  camine: "caminar",
  descanse: "descansar",
  beba: "beber",
  use: "usar",
  evite: "evitar",
  siga: "seguir",
  vuelva: "volver",
  deje: "dejar",
};

/** Usted imperatives of a plan → the infinitive. */
const IMPERATIVE: Record<string, string> = {
  ...SUBJUNCTIVE,
  llame: "llamar",
  llámenos: "llamar",
  llámeme: "llamar",
  acuda: "acudir",
  venga: "venir",
  aplique: "aplicar",
  eleve: "elevar",
  continúe: "continuar",
  suspenda: "suspender",
};

const PLAN: Rule[] = [
  [
    u(`^(?:quiero|me gustaría|quisiera|le pido) que (?:usted )?(${Object.keys(SUBJUNCTIVE).join("|")})\\b`),
    (_m, v: string) => SUBJUNCTIVE[v.toLowerCase()] ?? v,
  ],
  [
    u(
      "^(?:le |te |lo |la )?(?:voy a|vamos a|quiero|me gustaría|quisiera|hay que|habría que) (?:también )?([\\p{L}]+?(?:ar|er|ir))(?:le|la|lo|les|se)?\\b",
    ),
    (_m, v: string) => v,
  ],
  [u(`^(?:le |se lo |se la )?(${Object.keys(INFINITIVE).join("|")})\\b`), (_m, v: string) => INFINITIVE[v.toLowerCase()] ?? v],
  [u("^(?:le |te )?recomiendo (?:que )?"), "se recomienda "],
  [u("^(?:usted )?(?:debe|tiene que|necesita|debería|puede) (?:también )?"), ""],
  [
    u(
      "^(?:nos vemos|vuelva|regrese|lo veo|la veo|le veo|la vuelvo a ver|lo vuelvo a ver) (?:de nuevo |otra vez )?(en|dentro de)\\b",
    ),
    "control $1",
  ],
  // The patient addressed ("vuelva si no mejora", "llámenos") → the instruction in the infinitive.
  [u(`^(${Object.keys(IMPERATIVE).join("|")})(?:nos|me|lo|la|le)?\\b`), (_m, v: string) => IMPERATIVE[v.toLowerCase()] ?? v],
  [u("^poner(?:le)? (?:un )?tratamiento (con|de)\\b"), "iniciar tratamiento $1"],
];

const TIDY: Rule[] = [
  [/\s+,/g, ","],
  [/,\s*,/g, ","],
  [/ {2,}/g, " "],
];

const VERB = u(
  "\\b(?:es|son|está|están|era|fue|fueron|estaba|tiene|tienen|tenía|ha|han|había|refiere|niega|toma|toman|presenta|siente|muestra|mostró|indica|revela|duele|duelen|fuma|bebe|trabaja|camina|vive|come|duerme|tose|se recomienda|puede|debe|va|van)\\b",
  "iu",
);

export const REWRITE_ES: LanguageRewriter = {
  drop: {
    any: [
      u(
        "^(?:voy a|vamos a) (?:examinarle|examinarlo|examinarla|explorarle|explorarlo|explorarla|revisarle|revisarlo|revisarla|echar un vistazo|auscultarle|auscultarlo|auscultarla)\\b[^,]*$",
      ),
      u("^(?:vale|muy bien|perfecto|gracias|bueno)$"),
    ],
  },
  rules: { any: ANY, exam: EXAM, results: RESULTS, assessment: ASSESSMENT, plan: PLAN, history: [] },
  reported: REPORTED,
  tidy: TIDY,
  hasVerb: (text) => VERB.test(text) || u("\\b[\\p{L}]{3,}(?:ar|er|ir|ado|ada|ido|ida)\\b", "iu").test(text),
};
