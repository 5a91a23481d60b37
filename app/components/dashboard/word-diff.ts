/** A word-level diff (longest common subsequence): what the clinician removed and added. */
export type DiffPart = { kind: "same" | "removed" | "added"; text: string };

// Sections are short; beyond this many words the diff falls back to "all removed, all added"
// rather than an O(n·m) table.
const MAX_WORDS = 600;

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = before.split(/(\s+)/).filter(Boolean);
  const b = after.split(/(\s+)/).filter(Boolean);
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) {
    return [
      { kind: "removed", text: before },
      { kind: "added", text: after },
    ];
  }
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], text: string) => {
    const last = out.at(-1);
    if (last && last.kind === kind) last.text += text;
    else out.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push("same", a[i] ?? "");
      i++;
      j++;
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) push("removed", a[i++] ?? "");
    else push("added", b[j++] ?? "");
  }
  while (i < a.length) push("removed", a[i++] ?? "");
  while (j < b.length) push("added", b[j++] ?? "");
  return out;
}
