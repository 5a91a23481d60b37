// English rewriting rules (see rewrite.ts). The text is already in the third person: the patient
// is "he", "she" or "the patient"; the clinician still says "I" and "we".
import type { LanguageRewriter, Rule } from "./rewrite.ts";

const S = "(?:he|she|the patient|they)";
const OBJ = "(?:him|her|them|the patient)";
const POSS = "(?:his|her|their|the patient's)";
const ADV = "(?:also |still |now |really |definitely |certainly |probably |just )?";

/** Body parts and systems named in exam narration → the label a clinician writes. */
const EXAM_LABELS: [RegExp, string][] = [
  [/^(?:heart|cardiac|cardiovascular|cardio)$/, "Heart"],
  [/^(?:lung|lungs|pulmonary|respiratory|chest)$/, "Lungs"],
  [/^(?:abdominal|abdomen|belly|stomach|gi)$/, "Abdomen"],
  [/^neck$/, "Neck"],
  [/^(?:skin|dermatologic)$/, "Skin"],
  [/^(?:neuro|neurologic|neurological)$/, "Neurological"],
  [/^(?:lower extremity|lower extremities|extremity|extremities|leg|legs)$/, "Extremities"],
  [/^(?:musculoskeletal|msk)$/, "Musculoskeletal"],
  [/^(?:heent|head and neck)$/, "HEENT"],
  [/^(?:eye|eyes)$/, "Eyes"],
  [/^(?:ear|ears)$/, "Ears"],
  [/^(?:throat|mouth|oral)$/, "Throat"],
  [/^(?:back|spine|lumbar|cervical spine|lumbar spine)$/, "Back"],
];
const BODY =
  "(?:(?:right|left|bilateral|lower|upper) )?(?:heart|cardiac|cardiovascular|lung|lungs|pulmonary|respiratory|chest|abdominal|abdomen|belly|neck|skin|neuro|neurologic|neurological|extremity|extremities|musculoskeletal|msk|heent|eye|eyes|ear|ears|throat|mouth|back|spine|lumbar spine|knee|ankle|hip|shoulder|elbow|wrist|hand|foot|leg|legs|arm|toe|finger|thumb)";

function label(part: string): string {
  const p = part.toLowerCase().trim();
  for (const [re, name] of EXAM_LABELS) if (re.test(p)) return name;
  return p.charAt(0).toUpperCase() + p.slice(1);
}

/** Patient verbs in -ing → the symptom a note names ("swelling up" → "swelling"). */
const SYMPTOM_ING: Record<string, string> = {
  "swelling up": "swelling",
  swelling: "swelling",
  coughing: "cough",
  "coughing up": "coughing up",
  "throwing up": "vomiting",
  vomiting: "vomiting",
  wheezing: "wheezing",
  sweating: "sweating",
  bleeding: "bleeding",
  itching: "itching",
  sneezing: "sneezing",
  limping: "limping",
  snoring: "snoring",
  "passing out": "syncope",
  "peeing a lot": "urinary frequency",
  "peeing more": "urinary frequency",
};
const ING = Object.keys(SYMPTOM_ING)
  .sort((a, b) => b.length - a.length)
  .join("|");

/** Adjectives the patient uses of themselves → the symptom ("dizzy" → "dizziness"). */
const SYMPTOM_ADJ: Record<string, string> = {
  tired: "fatigue",
  fatigued: "fatigue",
  exhausted: "fatigue",
  dizzy: "dizziness",
  lightheaded: "lightheadedness",
  "light headed": "lightheadedness",
  nauseous: "nausea",
  nauseated: "nausea",
  "short of breath": "shortness of breath",
  winded: "shortness of breath",
  constipated: "constipation",
  depressed: "depressed mood",
  anxious: "anxiety",
  stressed: "stress",
  congested: "congestion",
  bloated: "bloating",
  stiff: "stiffness",
  weak: "weakness",
  numb: "numbness",
  sore: "soreness",
  achy: "aches",
  feverish: "feeling feverish",
};
const ADJ = Object.keys(SYMPTOM_ADJ)
  .sort((a, b) => b.length - a.length)
  .join("|");
const SYMPTOM_NOUN =
  "(?:pain|pains|ache|aches|headaches?|swelling|cough|fevers?|chills|rash|nausea|vomiting|diarrhea|constipation|trouble|difficulty|problems?|issues?|numbness|tingling|bleeding|discomfort|cramping|cramps|soreness|stiffness|weakness|fatigue|shortness of breath|palpitations|heartburn|reflux|dizziness|itching|spasms?|episodes?|symptoms?|drainage|discharge|congestion|wheezing|burning|tenderness|bruising|blurry vision|sweats)";

const adjList = (a: string, b?: string) =>
  [SYMPTOM_ADJ[a.toLowerCase()], b ? SYMPTOM_ADJ[b.toLowerCase()] : undefined]
    .filter((x, i, all): x is string => Boolean(x) && all.indexOf(x) === i)
    .join(" and ");

const ANY: Rule[] = [
  [/^(?:I am|we are) seeing (?:(?:mr|mrs|ms|miss)\.? )?[a-z]+,?\s*(?:here,?\s*|today,?\s*)?/i, ""],
  [/^what I am (?:seeing|looking at)(?: here)? is\s+/i, ""],
  [/\bI know (?:that )?/gi, ""],
  // Reading from the chart: "I have that she takes coq10" → "She takes coq10".
  [/^I (?:have|see|read) (?:here |in (?:the|my|his|her) (?:chart|notes?|records?) )?that (?=(?:he|she|they|the patient)\b)/i, ""],
  [/^I (?:also )?see that (?=(?:he|she|they|the patient)\b)/i, ""],
  // "I do appreciate" is exam narration wherever it stands: the finding is what follows.
  [
    /\b(and |but )?I (?:do |also |still |can |could )?appreciate (?:that )?(?:there (?:is|are) )?(?:some |a |an |the )?(?=[a-z0-9])/gi,
    "$1",
  ],
  // Reassurance that adds no fact: "to be sure we are not missing anything (else)".
  [
    /,?\s*(?:just )?(?:to|and) (?:make sure|be sure|ensure) (?:that )?we (?:are not|do not|aren't|don't) (?:missing|miss) anything(?: else)?(?: there| here)?\b/gi,
    "",
  ],
  // A finding the clinician knew of: "which we have heard", "that we knew about already".
  [
    /,?\s*(?:which|that) (?:I|we) (?:have )?(?:heard|knew about|have known about|discussed)(?: (?:that|it|this))?(?: already| before| in the past| previously)?(?=[,.;]|$)/gi,
    ", previously noted",
  ],
  [/\bI do not (?:think|believe) (?:that )?(?:we |I )?need to\b/gi, "no need to"],
  [/\bI do not (?:think|believe) (?:that )?(it|this|that|he|she|there) (is|are|was|has)\b/gi, "$1 $2 not"],
  [/^(?:I|we) (?:am|are) (?:also |still |just )?going to (?:go ahead and )?(?=[a-z])/i, "we will "],
  [/^(?:good )?(?:morning|afternoon|evening|hello|hi|hey)\b,?\s*(?:(?:mr|mrs|ms|miss|dr)\.? [a-z]+,?\s*)?/i, ""],
  // A vocative or a look at the chart before the point: "Mr. Smith," "I know that", "looking in my notes".
  [/^(?:mr|mrs|ms|miss|dr)\.? [a-z]+,\s*/i, ""],
  [
    /^(?:I know|I remember|I understand|I notice|I noticed|I see here|I see in (?:the|his|her|their) (?:chart|notes|records?)|I can see|looking (?:here )?(?:in|at|through) (?:my|the|his|her) (?:notes|chart|records?|note)|reviewing (?:the|his|her) chart)(?: here)?(?: that)?,?\s*/i,
    "",
  ],
  [/\bI (?:do |really |also )?(?:think|believe) (?:that )?(?=\S)/gi, ""],
  [/^[a-z]+,\s+(?=(?:I|it|we|he|she|this|that)\b)/, ""],
  [/\b(?:I am sorry|sorry|excuse me)\b,?\s*/gi, ""],
  [
    /^(?:so )?my (?:impression|assessment)(?: of (?:him|her|them|the patient))?(?: (?:at this time|today|here))?,?\s*(?:is (?:that )?)?/i,
    "",
  ],
  [/^from (?:a|an|the) ([a-z][a-z -]{2,30}) (?:standpoint|perspective),?\s*/i, (_m, topic: string) => `${topic}: `],
  [
    /\bI (?:am|was) (?:very |really |so )?(?:happy|pleased|glad|thrilled)(?: to (?:see|hear)| with| that)?(?: how| that)?\s*/gi,
    "",
  ],
  [/\bI (?:do not|did not|don't|didn't) (?:see|appreciate|hear|find|detect) (?:any |an |a )?/gi, "no "],
  [/\bI (?:do not|don't) (?:feel|think|see) (?:that )?(?:there is )?(?:the |a |any )?need (?:to|for)\b/gi, "no need to"],
  [
    /\b(?:I|we) (?:have |had |also )?(?:talked|discussed|spoke|went over)(?: about| with (?:him|her|them)(?: about)?)?\b/gi,
    "discussed",
  ],
  // Problem lead-ins ("for his first problem, his heart failure,"): the problem heading carries them.
  [
    new RegExp(
      `^(?:(?:and|so|now|next)\\s+)?(?:for|regarding|with regards? to|in regards? to|as far as|in terms of|as for|moving on to|turning to|concerning|with respect to|now for) ${POSS} (?:(?:first|second|third|fourth|fifth|next|last|final|other) (?:problem|issue|concern)(?: of| is)?,?\\s*)?(?:${POSS} )?[^,]{3,50},\\s+(?=\\S)`,
      "i",
    ),
    "",
  ],
  [
    new RegExp(
      `^${POSS} (?:first|second|third|fourth|fifth|next|last|final|other) (?:problem|issue|concern)(?: is| of)? (?:${POSS} )?[^,]{3,50},\\s+(?=\\S)`,
      "i",
    ),
    "",
  ],
  // What the clinician did to the patient, without "we": "we started him on" → "started on".
  [
    new RegExp(`^we (?:have |had )?(started|put|switched|changed) ${OBJ} (on|to)\\b`, "i"),
    (_m, verb: string, on: string) => `${verb === "put" ? "started" : verb} ${on}`,
  ],
  [new RegExp(`^we (?:have|had|kept) ${OBJ} on\\b`, "i"), "on"],
  // Fillers and hedges the speech clean-up leaves.
  [
    /\b(?:kinda|sorta|you know|i mean|pretty much|more or less|or something(?: like that)?|and stuff(?: like that)?|and everything|and all that|to be honest|honestly|obviously|basically|actually|literally|definitely|certainly|of course|i guess|i suppose|as i said|like i said|go ahead and|at this point in time)\b,?\s*/gi,
    "",
  ],
  // Backchannels said mid-sentence ("it is yeah the same thing", "sometimes yeah it seems").
  [/,?\s*\b(?:yeah|yep|yup|uh-huh|mm-hmm|um+|uh+)\b,?(?=\s|$)/gi, ""],
  // A closing "alright" after what was said ("control that diet alright"), not "doing alright".
  [/(?<!\b(?:is|are|was|were|be|been|doing|feel|feels|felt|looks?|seems?|sounds?)),?\s+alright\s*$/gi, ""],
  [/\ba little bit\b/gi, "a little"],
  [/^(?:that means|which means|and|but|so|then|also|now|anyway|okay|alright|yeah|well)\b,?\s*/i, ""],
  [/^(?:yes|no),\s*/i, ""],
  [/^(?:and|so|but),?\s+/i, ""],
  [/,\s*(?:so|and|but)\s*$/i, ""],
  [/,\s*(?:right|okay|ok|alright|you see|correct)\s*$/i, ""],
  [/\blike,\s*/gi, ""],
  [/,\s*like\s+/gi, ", "],
  // Judgements of the clinician's own that add nothing: "so that is good", "which is great".
  [/,?\s*(?:so |and )?(?:that|which|this) is (?:good|great|reassuring|fine|nice|excellent|good news|perfect)\b(?: news)?/gi, ""],
  [/,?\s*(?:so |and )?(?:that|which) (?:is|was) (?:all )?(?:good|great|reassuring)\b/gi, ""],
  // False starts: a comma right after a word that cannot end a phrase ("I want to, put her on").
  [
    /\b(to|the|a|an|of|have|has|had|is|are|was|were|with|some|his|her|their|on|in|for|at|be|been|get|put|that|any|my|your|these|those|this)\s*,\s+/gi,
    "$1 ",
  ],
  [/\b(notice|noticed|see|hear|appreciate|feel|think|know|guess|mean|say)\s*,\s+/gi, "$1 "],
  // A cut-off word ("call 911-", "left-") and stutters over a word boundary.
  [/(\w)-(?=\s|$)/g, "$1"],
  // Frequencies as notes write them.
  [/\bonce (?:a|per|every) day\b|\bevery day\b|\bper day\b|\beach day\b/gi, "daily"],
  [/\btwice (?:a|per|every) day\b/gi, "twice daily"],
  [/\b(\d+) times (?:a|per|every) day\b/gi, "$1 times daily"],
  [/(\d+(?:\.\d+)?\s*(?:mg|mcg|units?|g|ml|milliliters?|tablets?|pills?|puffs?))\s*,?\s*(?:a|per) day\b/gi, "$1 daily"],
  [/(\d+(?:\.\d+)?\s*(?:mg|mcg|units?|g|ml))\s*,?\s*(?:a|per|at) night\b/gi, "$1 at night"],
  [/\b(\d)\s*out of\s*6\b/gi, "$1/6"],
  [/\b(\d)\s*out of\s*5\b/gi, "$1/5"],
  [/\b(\d)\s*out of\s*10\b/gi, "$1/10"],
  // "Lasix, 40 mg" → "Lasix 40 mg".
  [/\b([a-z]{4,}),\s+(\d+(?:\.\d+)?\s*(?:mg|mcg|units?)\b)/gi, "$1 $2"],
];

const REPORTED: Rule[] = [
  [
    new RegExp(
      `^${S} ${ADV}(?:does not|did not|has not|has never|had not|never) (?:had |have |get |got |notice |noticed |experience |experienced |feel |felt )?(?:any )?(?=(?:[a-z]+ ){0,3}${SYMPTOM_NOUN}\\b)`,
      "i",
    ),
    "denies ",
  ],
  [
    new RegExp(
      `^${S} ${ADV}(?:is|was|has been|feels|felt|has felt|gets|got|has been feeling|is feeling|has been getting) (?:so |very |more |really |pretty |quite |extremely |slightly |a lot more )?(${ADJ})(?: and (?:so |very |more )?(${ADJ}))?\\b`,
      "i",
    ),
    (_m, a: string, b?: string) => `reports ${adjList(a, b)}`,
  ],
  [
    new RegExp(`^${S} ${ADV}(?:has been|is|was|had been|has|keeps|kept) (${ING})\\b`, "i"),
    (_m, v: string) => `reports ${SYMPTOM_ING[v.toLowerCase()] ?? v}`,
  ],
  [
    new RegExp(
      `^${S} ${ADV}(?:has been|is|was|had been) (?:having|experiencing|getting|noticing|dealing with|struggling with|feeling) (?:some |a lot of |lots of |a few |more |any )?`,
      "i",
    ),
    "reports ",
  ],
  [
    new RegExp(
      `^${S} ${ADV}(?:notices|noticed|gets|got|experiences|experienced|developed|has developed|has noticed) (?:some |a lot of |lots of |a few |more )?`,
      "i",
    ),
    "reports ",
  ],
  [
    new RegExp(
      `^${S} ${ADV}(?:has|had) (?!not\\b|no\\b|never\\b)(?:had )?(?:some |a lot of |lots of |a few |a |an |this |these |that )?(?=(?:[a-z]+ ){0,3}${SYMPTOM_NOUN}\\b)`,
      "i",
    ),
    "reports ",
  ],
  [new RegExp(`^${S} ${ADV}(?:feels|felt) like\\b`, "i"), "reports feeling like"],
  [
    new RegExp(
      `^${S} ${ADV}(?:says|said|states|stated|mentions|mentioned|thinks|thought|believes|feels|felt) (?:that )?(?=${S}\\b)`,
      "i",
    ),
    "",
  ],
  // A hedge the patient leads with: "probably since labor day, so about 5 weeks".
  [/^(?:probably|maybe|perhaps|possibly|i would say|roughly)\s+(?=(?:about|around|since|for|like|over|almost|\d))/i, ""],
  [/^(?:like\s+)?(?:about|around)\s+(?=\d)/i, "about "],
  [/,\s*so\s+(?=about|around|almost|\d)/gi, ", "],
];

const EXAM: Rule[] = [
  // Lead-ins: "on his physical exam today," / "on her lung exam" / "when I listen to his heart".
  [
    new RegExp(
      `^(?:on|upon|in|during) (?:${POSS} |your |the |my )?(?:physical |full |today's )?(?:examination|exam|evaluation)\\b(?! of)(?: today| here)?,?\\s*`,
      "i",
    ),
    "",
  ],
  [
    new RegExp(
      `^(?:on|upon|in|during) (?:${POSS} |your |the |my )?(${BODY}) (?:exam|examination|evaluation)(?: today)?,?\\s*`,
      "i",
    ),
    (_m, part: string) => `${label(part)}: `,
  ],
  // The same lead-in once the third-person pass has dropped its "on": "his neck exam I do not…".
  [
    new RegExp(
      `^(?:${POSS}|your) (${BODY}) (?:exam|examination|evaluation)(?: today)?,?\\s+(?!(?:is|was|are|were|shows?|showed|reveals?|revealed|demonstrates?|demonstrated)\\b)`,
      "i",
    ),
    (_m, part: string) => `${label(part)}: `,
  ],
  // "Heart: he does have a 2/6 murmur" → "Heart: 2/6 murmur"; "no JVD or any bruits" → "no JVD or bruits".
  [
    new RegExp(`^([A-Z][a-z]{2,20}): ${S} (?:does |also |still )?(?:has|have) (?:a |an |some )?(?!(?:been|had|not|no)\\b)`, "i"),
    "$1: ",
  ],
  [/\b(no\b[^.;]*?) or any\b/gi, "$1 or"],
  // "Lungs: his lungs are clear" → "Lungs: clear".
  [
    new RegExp(`^([A-Z][a-z]{2,20}): (?:${POSS} |the |your )?(${BODY}) (?:is|are|sounds?|looks?|feels?|appears?) (?!to\\b)`, ""),
    "$1: ",
  ],
  [
    new RegExp(
      `^(?:when|as) I (?:listen|listened|look|looked|feel|felt|examine|examined|palpate|palpated) (?:to |at |on )?(?:${POSS} |your |the )?(${BODY}),?\\s*`,
      "i",
    ),
    (_m, part: string) => `${label(part)}: `,
  ],
  [
    new RegExp(
      `^(?:on |upon )?(?:examination|exam|evaluation|auscultation|palpation) of (?:${POSS} |the |your )?(${BODY})(?: (?:shows|showed|reveals|revealed|demonstrates|demonstrated))?,?\\s*`,
      "i",
    ),
    (_m, part: string) => `${label(part)}: `,
  ],
  // "His lungs are clear" → "Lungs: clear".
  [
    new RegExp(
      `^(?:${POSS} |the |your )(${BODY}) (?:is|are|was|were|sounds?|sounded|looks?|looked|feels?|felt|appears?|appeared|seems?) (?!to\\b)`,
      "i",
    ),
    (_m, part: string) => `${label(part)}: `,
  ],
  [
    new RegExp(`^(?:${POSS} |the |your )(${BODY}) (?:has|have|had|shows?) (?!been\\b|had\\b)`, "i"),
    (_m, part: string) => `${label(part)}: `,
  ],
  // The clinician's finding verbs: "I do not appreciate any" → "no", "I do hear a" → "".
  [
    /\bI (?:do not|did not|cannot|could not|don't|didn't|can't|couldn't) (?:really )?(?:appreciate|hear|see|feel|note|notice|find|detect|palpate|elicit|appreciate) (?:any |an |a )?/gi,
    "no ",
  ],
  [
    /\bI (?:do |did |also |can |could |definitely |still )?(?:appreciate|appreciated|hear|heard|see|saw|feel|felt|note|noted|notice|noticed|find|found|detect|detected|palpate|palpated|elicit|elicited) (?:that )?(?:there (?:is|are) )?(?:some |a |an |the |mild |what sounds like )?/gi,
    (m) => (/\bmild\b/i.test(m) ? "mild " : ""),
  ],
  [/\bthere (?:is|are|was|were) (?:not any|no)\b/gi, "no"],
  [/\bthere (?:is|are|was|were) (?:some |a |an )?/gi, ""],
  [/\bno evidence of any\b/gi, "no evidence of"],
  [new RegExp(`^${S} (?:has|had) (?:some |a |an )?(?!(?:been|had|not|to|no)\\b)`, "i"), ""],
  [new RegExp(`^${S} (?:does not|did not) have (?:any )?`, "i"), "no "],
  [new RegExp(`^${S} (?:has|had) no\\b`, "i"), "no"],
  [/\bbilaterally at the bases\b|\bat the bases bilaterally\b|\bat both bases bilaterally\b/gi, "at both bases"],
  [/,?\s*which we (?:have )?(?:heard|seen|noted|appreciated) (?:in the past|before|previously)\b/gi, ", previously noted"],
  [/\bwhich (?:I|we) (?:heard|saw|noted) (?:in the past|before)\b/gi, "previously noted"],
  [/\bno any\b/gi, "no"],
  [/^([A-Z][^:]{1,30}: )(?:it|they) (?:has|have|is|are|sounds?|looks?|feels?) /, "$1"],
  [/^([A-Z][^:]{1,30}: )(?:his|her|their) /, "$1"],
];

const RESULTS: Rule[] = [
  [
    new RegExp(
      `^(?:I|we) (?:also )?(?:had a chance to |got to )(?:review|look at|look over|go over) (?:${POSS} |your |the )?([a-z0-9 -]{2,30}),\\s*(?:${POSS} |the )?`,
      "i",
    ),
    (_m, what: string) => `${what}: `,
  ],
  [/\b(?:that|which) we (?:did|got|obtained|ordered|had done|performed)\b/gi, "done"],
  [/^(?:this|that|here) is (?:the |his |her |their |your )?/i, ""],
  [
    new RegExp(
      `^(?:I|we) (?:also )?(?:had a chance to |got to |did |went ahead and )?(?:review|reviewed|look at|looked at|see|saw|got|get|have|had|received|obtained) (?:back )?(?:the )?(?:results? (?:of|from) )?(?:${POSS} |your |the |a |an )?`,
      "i",
    ),
    "",
  ],
  [
    /,?\s*(?:and )?(?:it|this|that|which|they|these) (?:also )?(shows?|showed|revealed|reveals|demonstrated|demonstrates|indicated|indicates)(?: that)?\b/gi,
    " $1",
  ],
  [/,\s*(?:and )?there (?:is|are|was|were) (?:not any|no)\b/gi, ": no"],
  [/,\s*(?:and )?there (?:is|are|was|were) (?:some |a |an )?/gi, ": "],
  [
    new RegExp(
      `^(?:${POSS}|your|the) (?=[a-z0-9-]+ (?:[a-z0-9-]+ )?(?:shows?|showed|revealed|reveals|demonstrated|demonstrates|was|were|came back|is|are)\\b)`,
      "i",
    ),
    "",
  ],
];

const ASSESSMENT: Rule[] = [
  [/\bI (?:do )?(?:think|believe|feel|suspect|would say) (?:that )?(?=this is|it is|that is|these are)/gi, ""],
  [new RegExp(`\\bI (?:do )?(?:think|believe|feel) (?:that )?(?=${S}\\b)`, "gi"), ""],
  [/\bI (?:do )?(?:think|believe|feel) (?:that )?/gi, ""],
  [
    /\bI (?:am|was) (?:a little |slightly |somewhat )?(?:worried|concerned) (?:that )?(?:this|it|that) (?:could|may|might|is) (?:be )?(?:an? )?/gi,
    "concern for ",
  ],
  [/\bI (?:am|was) (?:a little |slightly |somewhat )?(?:worried|concerned) about\s+/gi, "concern for "],
  [new RegExp(`\\bI suspect (?:that )?(?:${S} (?:has|may have|might have) )?`, "gi"), "suspect "],
  [
    new RegExp(`^(?:it|this) (?:sounds|looks|seems) like (?:${S} (?:has|may have|might have|is having) )?(?:an? )?`, "i"),
    "likely ",
  ],
  [/^(?:so )?(?:my |the )?(?:impression|assessment|diagnosis) (?:is|here is|today is) (?:that )?/i, ""],
];

const PLAN: Rule[] = [
  // "I would like you to" / "I want him to" → advice.
  [
    new RegExp(
      `^(?:I|we) (?:do |also |would |really )?(?:want|would like|need|'d like|ask|asked|advise|advised|encourage|encouraged) ${OBJ} to (?:try to |try and |continue to )?`,
      "i",
    ),
    "advised to ",
  ],
  [
    new RegExp(`^${S} (?:should|needs? to|will need to|has to|have to|must|ought to)(?! be seen\\b) (?:try to |try and )?`, "i"),
    "advised to ",
  ],
  [/^(?:I|we) (?:would |do |also )?(?:recommend|suggest)(?:ed)? (?:that )?/i, "recommend "],
  // Lead-ins to an order: "we will go ahead and", "I want to", "I am going to", "I'd like to".
  [
    /^(?:I|we) (?:also |probably |just |still |really |then )?(?:would like to|'d like to|do want to|do need to|are going to|am going to|are gonna|want to|wanted to|need to|plan to|will|would|can|could|should|might|may|'ll) (?:also |probably |just |first |then |now |definitely )*(?:go ahead and )?(?:try to )?/i,
    "",
  ],
  [/^let us (?:go ahead and |also )?/i, ""],
  [/^will (?=[a-z])/i, ""],
  // Verb phrases → orders.
  [new RegExp(`^(?:put|start|get|place) ${OBJ} (?:back )?(?:on|started on) (?:some |a |an |the )?`, "i"), "start "],
  [new RegExp(`^get (?:${OBJ}|${S}) started (?:on|with) (?:some |a |an |the )?`, "i"), "start "],
  [new RegExp(`^(?:keep|have) ${OBJ} (?:on|continue|continue on|taking) (?:the |${POSS} )?`, "i"), "continue "],
  [new RegExp(`^(?:take|get) ${OBJ} off (?:of )?(?:the |${POSS} )?`, "i"), "stop "],
  [new RegExp(`^(?:refer|send) ${OBJ} (?:over )?(?:to|for) (?:a |an |the )?`, "i"), "refer to "],
  [/^(?:make|place|put in) (?:a )?referral (?:to|for) (?:a |an |the )?/i, "refer to "],
  [new RegExp(`^(?:see|have) ${OBJ} (?:back|come back|return|follow up)(?: (?:here|with me|with us))?`, "i"), "follow up"],
  [new RegExp(`^(?:have ${OBJ} )?(?:follow up|follow-up|come back) (?:with (?:me|us) )?`, "i"), "follow up "],
  [
    /^(?:start|continue|increase|decrease|stop|hold|discontinue|resume|refill|reduce|change|switch|taper|restart|wean)\s+(?:him |her |them )?(?:on )?(?:with )?(?:the |his |her |their )?/i,
    (m) => `${m.trim().split(/\s+/)[0]} `,
  ],
  [
    /^(?:order|get|check|do|obtain|repeat|draw|send|schedule|set up|arrange) (?:him |her |them )?(?:for )?(?:a |an |another |some |the )?(?=(?:repeat |follow-up |fasting |baseline |new )?(?:[a-z0-9-]+ ){0,3}(?:x-ray|xray|x-rays|mri|ct|ct scan|cat scan|ultrasound|echocardiogram|echo|ekg|ecg|labs?|blood work|bloodwork|a1c|hemoglobin a1c|cbc|cmp|bmp|lipid panel|lipids|panel|urinalysis|culture|biopsy|mammogram|colonoscopy|stress test|imaging|study|test|tests|level|levels|scan|swab)\b)/i,
    "",
  ],
  [
    /^(?:order|prescribe|give|send in|send) (?:him |her |them )?(?:a |an |some )?/i,
    (m) => `${/prescribe/i.test(m) ? "prescribe" : "order"} `,
  ],
  // Timing: "in a month" → "in 1 month" (the one number a plan may write that was said as a word).
  [/\bin (?:a|one) (week|month|year|day)\b/gi, "in 1 $1"],
  [/\bin (?:a )?couple (?:of )?(weeks|months|days)\b/gi, "in 2 $1"],
  [/\bcall (?:me|us)\b/gi, "call"],
  [new RegExp(`\\bfor ${OBJ}\\b(?= to\\b)`, "gi"), ""],
];

const TIDY: Rule[] = [
  // The clinician's asides that a note states plainly.
  [/\bwhat (?:we|I) (?:call|refer to as)\s*,?\s*/gi, ""],
  [/\bgive (?:us|me) a call\b/gi, "call the office"],
  [/\b(?:we|I) (?:are not|am not|aren't) going to\b/gi, "will not"],
  [/\b(?:we|I) (?:do not|don't) need to\b/gi, "no need to"],
  [/\b(?:we|I) (?:do|also|still) need to\b/gi, "need to"],
  [/\bI (?:am|was) not (?:too |very |overly |really )?(worried|concerned)\b/gi, "not $1"],
  // "We will" left after the role's rules: the note's shorthand "will" ("Will review the echocardiogram").
  [/\b(?:I|we) (?:also |still |really |then |probably )?(?:will|(?:are|am) (?:also |still )?going to|'ll|are gonna)\b/gi, "will"],
  [/\b(?:I|we) (?:also |still |then )?(can|could|might|may|should|would|need to|have to|will need to)\b/gi, "$1"],
  [new RegExp(`\\bI (?:also |still |do )?(?:want|would like|need) ${OBJ} to\\s+`, "gi"), "advised to "],
  [/\bI (?:also |still |do )?(?:want|would like|need|wanted) to\s+/gi, ""],
  [
    /\b(?:we|I) (?:have |had )?(placed|put|started|sent|referred|gave|drew|did|ordered|got|checked|obtained|prescribed|increased|decreased|changed|stopped|reviewed|treated|called|explained|advised|recommended|examined|counseled|told|asked|saw|spoke)\b/gi,
    "$1",
  ],
  [/\bfor us to\b/gi, "to"],
  [new RegExp(`,?\\s*(?:and|so)\\s+(?:I|we) (?:do |also )?(?:want|would like|need) ${OBJ} to\\s+`, "gi"), ", and advised to "],
  [/^(?:it )?(?:sounds|looks|seems) like\s+/i, ""],
  [/\bcome back (?:to see|and see) (?:me|us)\b/gi, "return"],
  [/\blet (?:me|us) know\b/gi, "report"],
  [/\b(?:with|to) (?:me|us)\b/gi, ""],
  [/\bcall (?:me|us)\b/gi, "call"],
  [/\bmy (nurse|office|assistant|team|colleague|partner|staff)\b/gi, "the $1"],
  [/\bour (office|clinic|practice|nurse|team|staff|portal|patient portal)\b/gi, "the $1"],
  [
    /,?\s*(?:but |and )?(?:which |that )?we (?:have )?(?:heard|seen|noted|appreciated)(?: that| this| it)? (?:in the past|before|previously)\b/gi,
    ", previously noted",
  ],
  [/\bplease\b,?\s*/gi, ""],
  [/\s+,/g, ","],
  [/,\s*,/g, ","],
  [/:\s*,\s*/g, ": "],
  [/\b(\w+) \1\b/gi, "$1"],
  [/\s*;\s*$/g, ""],
];

const VERBS =
  /\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|will|would|can|could|should|shall|may|might|must|cannot|reports?|denies|endorses?|states?|notes?|feels?|felt|takes?|took|gets?|got|goes|went|comes?|came|shows?|showed|reveals?|revealed|demonstrates?|presents?|start|continue|order|increase|decrease|discontinue|stop|refer|follow|schedule|call|advised|recommend|prescribe|take|use|uses|avoid|monitor|check|obtain|repeat|apply|elevate|rest|walk|see|saw|hurts?|lives|works|smokes|drinks|describes?|complains?|underwent|began|fell|broke|woke|keep|tried|wants?|needs?|return|tolerates?|remains?|suspect)\b/i;

export const REWRITE_EN: LanguageRewriter = {
  drop: {
    any: [
      /^(?:let me|let us|I am going to|I will|I want to|I would like to|we will|we are going to|I do want to|I just want to)\s+(?:do |go ahead and do |take |have |go over |talk about |review |examine |listen |check |quickly )+(?:a |an |some |your |his |her |the |my )?(?:quick |brief |little )?(?:look|listen|physical exam|exam|examination|physical|assessment and (?:my )?plan|assessment|plan|feel)\b/i,
      /^(?:let me|I will|I want to|we will)\s+(?:go over|talk about|tell (?:you|him|her) about)\b.*\b(?:assessment|plan|results?)\b/i,
      /^(?:okay|alright|all right|sounds good|great|perfect|good|thank you|thanks)$/i,
      /^we will see how (?:it|that|things|he|she|the patient) (?:goes|does|go)\b/i,
      /\b(?:let me|I am going to|I want to|I would like to|we will|we are going to|I just want to|I will) (?:go ahead and )?(?:do|take|have) (?:a |an )?(?:quick |brief |little )?(?:look|listen|physical exam|exam|examination)\b/i,
      /^(?:show me|please use|use my|insert|hey dax|dax|go to|open up|pull up|let us take a look|let me take a look|talk a little|go over)\b/i,
      /\b(?:talk|talk a little|go over|tell (?:him|her|them|you)) (?:about )?(?:my )?(?:assessment|plan)\b/i,
      /\breview of systems\b.*\b(?:did|went over|with (?:him|her|them))\b/i,
      /\bfor me\b/i,
      // Announcing the assessment is not part of it: "in terms of my impression of him".
      /^(?:in terms of |as for |so )?my (?:impression|assessment)(?: and (?:my )?plan)?(?: (?:of|for) (?:him|her|them|the patient))?$/i,
      /\bmy (?:assessment|impression) and (?:my )?plan\b(?!.*\b(?:\d|mg|order|start|continue|refer)\b)/i,
    ],
    exam: [/^(?:on|upon) (?:his |her |the |your )?(?:physical )?exam(?:ination)?$/i],
  },
  rules: { any: ANY, exam: EXAM, results: RESULTS, assessment: ASSESSMENT, plan: PLAN, history: [] },
  reported: REPORTED,
  tidy: TIDY,
  hasVerb: (text) =>
    VERBS.test(text) ||
    /\b[a-z]{3,}ed\b/i.test(text.replace(/\b(?:red|bed|shed|need|speed|seed|feed|bled|bred)\b/gi, "")) ||
    /\b(?:he|she|it|they|patient)\s+[a-z]+s\b/i.test(text),
};
