// JavaScript's \b only knows ASCII letters; French and Spanish rules write \b and get a Unicode
// word boundary instead.
const WORD = "[\\p{L}\\d]";
const BOUNDARY = `(?:(?<!${WORD})(?=${WORD})|(?<=${WORD})(?!${WORD}))`;

export function u(source: string, flags = "i"): RegExp {
  return new RegExp(source.replace(/\\b/g, BOUNDARY), flags.includes("u") ? flags : `${flags}u`);
}

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
