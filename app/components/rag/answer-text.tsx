import type { ReactNode } from "react";

// SPEC §5: assistant text is escaped for HTML (React does it: no markup from the answer is ever
// interpreted), then **bold**, *italic* and bullet lists (- or •) are rendered; [n] markers link to
// the matching citation chip. Keys are character offsets: a rendered answer never reorders.

const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|\[\d+\])/g;

function inline(text: string, citationHref: (n: number) => string): ReactNode[] {
  let offset = 0;
  return text.split(INLINE).map((part) => {
    const key = `c${offset}`;
    offset += part.length;
    if (/^\*\*[^*]+\*\*$/.test(part)) return <strong key={key}>{part.slice(2, -2)}</strong>;
    if (/^\*[^*]+\*$/.test(part)) return <em key={key}>{part.slice(1, -1)}</em>;
    const marker = /^\[(\d+)\]$/.exec(part);
    if (marker) {
      return (
        <sup key={key}>
          <a href={citationHref(Number(marker[1]))} className="rag-marker">
            [{marker[1]}]
          </a>
        </sup>
      );
    }
    return part;
  });
}

export function AnswerText({ text, citationHref }: { text: string; citationHref: (n: number) => string }) {
  const blocks: ReactNode[] = [];
  let items: { key: string; text: string }[] = [];
  const flush = () => {
    if (items.length) {
      blocks.push(
        <ul key={`ul${items[0]?.key}`}>
          {items.map((item) => (
            <li key={item.key}>{inline(item.text, citationHref)}</li>
          ))}
        </ul>,
      );
      items = [];
    }
  };
  let offset = 0;
  for (const line of text.split("\n")) {
    const lineKey = `l${offset}`;
    offset += line.length + 1;
    const bullet = /^\s*[-•]\s+(.*)$/.exec(line);
    if (bullet) {
      items.push({ key: lineKey, text: bullet[1] ?? "" });
      continue;
    }
    flush();
    if (line.trim()) blocks.push(<p key={lineKey}>{inline(line, citationHref)}</p>);
  }
  flush();
  return <div className="rag-answer">{blocks}</div>;
}
