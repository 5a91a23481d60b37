/**
 * espeak-ng's IPA (`espeak-ng -q -v en-us --ipa WORD`) to the 39 stress-less ARPAbet phones of the
 * pocketsphinx en-us acoustic model. Longest match first, so diphthongs and r-coloured vowels win
 * over their parts. Flaps (ɾ) become T: the acoustic model has no flap and T is the closer of T/D
 * for the drug names this is used for.
 */
const TABLE: readonly (readonly [string, readonly string[]])[] = [
  // r-coloured vowels and diphthongs
  ["ɑːɹ", ["AA", "R"]],
  ["ɔːɹ", ["AO", "R"]],
  ["oːɹ", ["AO", "R"]],
  ["ɛɹ", ["EH", "R"]],
  ["ɪɹ", ["IH", "R"]],
  ["ʊɹ", ["UH", "R"]],
  ["aɪə", ["AY", "ER"]],
  ["aɪ", ["AY"]],
  ["aʊ", ["AW"]],
  ["eɪ", ["EY"]],
  ["oʊ", ["OW"]],
  ["əʊ", ["OW"]],
  ["ɔɪ", ["OY"]],
  ["iə", ["IY", "AH"]],
  ["ɪə", ["IH", "AH"]],
  ["ɜː", ["ER"]],
  ["ɚ", ["ER"]],
  ["ɝ", ["ER"]],
  ["ɜ", ["ER"]],
  // affricates
  ["tʃ", ["CH"]],
  ["dʒ", ["JH"]],
  // vowels
  ["ɑː", ["AA"]],
  ["ɑ", ["AA"]],
  ["ɒ", ["AA"]],
  ["æ", ["AE"]],
  ["a", ["AE"]],
  ["ʌ", ["AH"]],
  ["ə", ["AH"]],
  ["ɐ", ["AH"]],
  ["ɔː", ["AO"]],
  ["ɔ", ["AO"]],
  ["oː", ["AO"]],
  ["o", ["OW"]],
  ["ɛ", ["EH"]],
  ["e", ["EY"]],
  ["ɪ", ["IH"]],
  ["ᵻ", ["IH"]],
  ["iː", ["IY"]],
  ["i", ["IY"]],
  ["ʊ", ["UH"]],
  ["uː", ["UW"]],
  ["u", ["UW"]],
  // consonants
  ["p", ["P"]],
  ["b", ["B"]],
  ["t", ["T"]],
  ["d", ["D"]],
  ["ɾ", ["T"]],
  ["ʔ", ["T"]],
  ["k", ["K"]],
  ["x", ["K"]],
  ["ɡ", ["G"]],
  ["g", ["G"]],
  ["f", ["F"]],
  ["v", ["V"]],
  ["θ", ["TH"]],
  ["ð", ["DH"]],
  ["s", ["S"]],
  ["z", ["Z"]],
  ["ʃ", ["SH"]],
  ["ʒ", ["ZH"]],
  ["h", ["HH"]],
  ["m", ["M"]],
  ["n", ["N"]],
  ["ŋ", ["NG"]],
  ["l", ["L"]],
  ["ɫ", ["L"]],
  ["ɹ", ["R"]],
  ["r", ["R"]],
  ["w", ["W"]],
  ["j", ["Y"]],
];

/** Stress, length-only marks, syllable breaks, ties and spaces carry no phone of their own. */
const IGNORED = /[ˈˌ.‿\s_-]|\u0361|\u200d|\u0329|\u030d/g;

export const ARPABET_PHONES = new Set(TABLE.flatMap(([, phones]) => phones));

export function ipaToArpabet(ipa: string): string[] {
  const text = ipa.normalize("NFC").replace(IGNORED, "");
  const phones: string[] = [];
  let i = 0;
  while (i < text.length) {
    const entry = TABLE.find(([symbol]) => text.startsWith(symbol, i));
    if (!entry) {
      const symbol = text.slice(i, i + 1);
      // A lone length mark after a vowel already consumed ("ː"), or an unknown symbol: never guess a phone.
      if (symbol === "ː") {
        i += 1;
        continue;
      }
      throw new Error(`no ARPAbet phone for IPA symbol "${symbol}" (U+${symbol.codePointAt(0)?.toString(16)}) in "${ipa}"`);
    }
    phones.push(...entry[1]);
    i += entry[0].length;
  }
  return phones;
}
