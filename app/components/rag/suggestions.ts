import { ASSISTANT } from "./constants.ts";

// SPEC §2 "Chat panel": four suggestion chips when the chat is empty, two picked at random from
// visit questions and two from product-help questions. `random` is injectable for tests.

function pick<T>(from: readonly T[], count: number, random: () => number): T[] {
  const pool = [...from];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) {
    const [item] = pool.splice(Math.floor(random() * pool.length), 1);
    if (item !== undefined) out.push(item);
  }
  return out;
}

export function pickSuggestions(
  visit: readonly string[],
  help: readonly string[],
  random: () => number = Math.random,
): { text: string; kind: "visit" | "help" }[] {
  const half = ASSISTANT.suggestions / 2;
  return [
    ...pick(visit, half, random).map((text) => ({ text, kind: "visit" as const })),
    ...pick(help, half, random).map((text) => ({ text, kind: "help" as const })),
  ];
}
