/** A pocketsphinx dictionary: "word PH ON ES", alternative pronunciations as "word(2) …". */
export type Dictionary = Map<string, string[][]>;

export function parseDictionary(text: string): Dictionary {
  const dict: Dictionary = new Map();
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#") || trimmed.startsWith(";;;")) continue;
    const [head = "", ...phones] = trimmed.split(/\s+/);
    const word = head.replace(/\(\d+\)$/, "").toLowerCase();
    if (!word || phones.length === 0) continue;
    addPronunciation(dict, word, phones);
  }
  return dict;
}

export function addPronunciation(dict: Dictionary, word: string, phones: readonly string[]) {
  const list = dict.get(word) ?? [];
  if (!list.some((p) => p.join(" ") === phones.join(" "))) list.push([...phones]);
  dict.set(word, list);
}

export function formatDictionary(dict: Dictionary): string {
  const lines: string[] = [];
  for (const word of [...dict.keys()].sort()) {
    (dict.get(word) ?? []).forEach((phones, i) => {
      lines.push(`${i === 0 ? word : `${word}(${i + 1})`} ${phones.join(" ")}`);
    });
  }
  return `${lines.join("\n")}\n`;
}
