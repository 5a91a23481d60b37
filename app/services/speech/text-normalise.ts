import { ENGLISH_ONES as ONES } from "#app/utils/number-words.ts";

/**
 * One spelling for words that are written several ways, so the language model, the dictionary and
 * word error rates all compare like with like: lower case, digits spelt out, units expanded,
 * punctuation dropped (apostrophes inside words kept: "patient's", "don't").
 */
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

const ABBREVIATIONS: Record<string, string> = {
  mg: "milligrams",
  mcg: "micrograms",
  ml: "milliliters",
  mm: "millimeters",
  cm: "centimeters",
  kg: "kilograms",
  bpm: "beats per minute",
  mmhg: "millimeters of mercury",
  dr: "doctor",
  mr: "mister",
  mrs: "missus",
  ms: "miss",
  vs: "versus",
  "%": "percent",
  "&": "and",
};

export function integerToWords(value: number): string {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`not a whole number: ${value}`);
  if (value < 20) return ONES[value] ?? "";
  if (value < 100) {
    const tens = TENS[Math.floor(value / 10)] ?? "";
    return value % 10 === 0 ? tens : `${tens} ${ONES[value % 10]}`;
  }
  if (value < 1000) {
    const rest = value % 100;
    return `${ONES[Math.floor(value / 100)]} hundred${rest ? ` ${integerToWords(rest)}` : ""}`;
  }
  if (value < 1_000_000) {
    const rest = value % 1000;
    return `${integerToWords(Math.floor(value / 1000))} thousand${rest ? ` ${integerToWords(rest)}` : ""}`;
  }
  return String(value)
    .split("")
    .map((d) => ONES[Number(d)])
    .join(" ");
}

function numberToWords(token: string): string {
  const [whole = "0", fraction] = token.split(".");
  const spoken = integerToWords(Number.parseInt(whole || "0", 10));
  if (!fraction) return spoken;
  return `${spoken} point ${fraction
    .split("")
    .map((d) => ONES[Number(d)])
    .join(" ")}`;
}

export function normaliseText(text: string): string {
  const spaced = text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    // 120/80 → "120 over 80" (blood pressure); 5% → "5 %".
    .replace(/(\d)\s*\/\s*(\d)/g, "$1 over $2")
    .replace(/(\d),(\d{3})/g, "$1$2")
    .replace(/%/g, " % ")
    // "10mg", "spo2": letters and digits are separate words when spoken.
    .replace(/([a-z])(\d)/g, "$1 $2")
    .replace(/(\d)([a-z])/g, "$1 $2")
    .replace(/[-–—/]/g, " ");
  const words: string[] = [];
  for (const raw of spaced.split(/\s+/)) {
    const token = raw.replace(/^[^a-z0-9%&']+|[^a-z0-9%&']+$/g, "").replace(/^'+|'+$/g, "");
    if (!token) continue;
    const expanded = ABBREVIATIONS[token];
    if (expanded) {
      words.push(expanded);
    } else if (/^\d+(\.\d+)?$/.test(token)) {
      words.push(numberToWords(token));
    } else {
      const cleaned = token.replace(/[^a-z']/g, " ").trim();
      if (cleaned) words.push(cleaned);
    }
  }
  return words.join(" ").replace(/\s+/g, " ").trim();
}

export function words(text: string): string[] {
  const normalised = normaliseText(text);
  return normalised ? normalised.split(" ") : [];
}
