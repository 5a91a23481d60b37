import type { Evidence } from "#app/services/coding/model.ts";

/** The note text the case was coded from, with the selected code's evidence spans marked. */
export function EvidenceText({ text, evidence }: { text: string; evidence: readonly Evidence[] }) {
  const spans = [...evidence].filter((e) => e.source === "note" && e.end <= text.length).sort((a, b) => a.start - b.start);
  const parts: Array<{ text: string; mark: boolean }> = [];
  let at = 0;
  for (const e of spans) {
    if (e.start < at) continue;
    parts.push({ text: text.slice(at, e.start), mark: false }, { text: text.slice(e.start, e.end), mark: true });
    at = e.end;
  }
  parts.push({ text: text.slice(at), mark: false });
  return (
    <div className="coding-evidence" data-testid="coding-evidence">
      {parts.map((p, i) =>
        p.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered.
          <mark key={i}>{p.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <span key={i}>{p.text}</span>
        ),
      )}
    </div>
  );
}
