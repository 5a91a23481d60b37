// Candidates → the template's sections, honouring each section's options (fixed text, placeholders,
// persistent carry-forward, verbosity, bullets or prose). Empty sections stay empty.
import type { NoteLanguage, NoteSectionDraft, NoteSentence, SectionKind, TemplateSection } from "../../model.ts";
import type { Analysis, Candidate } from "./candidates.ts";
import type { Lexicon } from "./lexicon.ts";
import { fillPlaceholders } from "./placeholders.ts";
import { resolveKind, routeKinds, wordBudget } from "./sections.ts";
import type { Sentence } from "./sentences.ts";
import { splitSentences, wordCount } from "./text.ts";
import { evidenceOf, sectionText } from "./write.ts";

function tokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\d]+/u)
      .filter((t) => t.length > 2),
  );
}

function similar(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  return shared / Math.min(a.size, b.size) >= 0.8;
}

function pick(candidates: Candidate[], budget: number, usedElsewhere: Set<number>, allowReuse: boolean): Candidate[] {
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.order - b.order);
  const chosen: Candidate[] = [];
  const seen: Set<string>[] = [];
  const texts = new Set<string>();
  let words = 0;
  for (const c of ranked) {
    if (words >= budget) break;
    const key = c.text.toLowerCase();
    if (texts.has(key)) continue;
    const first = c.evidence[0]?.index ?? -1;
    if (!allowReuse && !c.derived && usedElsewhere.has(first)) continue;
    const set = tokens(c.text);
    if (seen.some((other) => similar(set, other))) continue;
    const n = wordCount(c.text);
    if (words > 0 && words + n > budget * 1.15) continue;
    chosen.push(c);
    seen.push(set);
    texts.add(key);
    words += n;
  }
  return chosen.sort((a, b) => a.order - b.order);
}

/** Review-of-systems lines grouped by body system when written as bullets. */
function groupBySystem(chosen: Candidate[]): { text: string; evidence: Sentence[] }[] {
  const groups = new Map<string, { text: string[]; evidence: Sentence[] }>();
  const out: { text: string; evidence: Sentence[] }[] = [];
  for (const c of chosen) {
    if (!c.system) {
      out.push({ text: c.text, evidence: c.evidence });
      continue;
    }
    const group = groups.get(c.system) ?? { text: [], evidence: [] };
    group.text.push(c.text);
    group.evidence.push(...c.evidence);
    groups.set(c.system, group);
  }
  for (const [system, group] of groups) out.push({ text: `${system}: ${group.text.join(" ")}`, evidence: group.evidence });
  return out;
}

/** Outside a bulleted review of systems, one question's denials read as one sentence. */
function mergeReviewLines(chosen: Candidate[], lexicon: Lexicon): Candidate[] {
  const out: Candidate[] = [];
  for (const c of chosen) {
    const last = out.at(-1);
    if (c.ros && last?.ros && last.order === c.order && last.ros.negative === c.ros.negative) {
      const items = [...last.ros.items, ...c.ros.items];
      const text = c.ros.negative ? lexicon.write.denies(items) : lexicon.write.reports(items);
      out[out.length - 1] = { ...last, text, ros: { items, negative: c.ros.negative } };
    } else out.push(c);
  }
  const seen = new Set<string>();
  return out.filter((c) => {
    if (seen.has(c.text)) return false;
    seen.add(c.text);
    return true;
  });
}

export interface ComposeInput {
  sections: TemplateSection[];
  analysis: Analysis;
  sentences: Sentence[];
  language: NoteLanguage;
  lexicon: Lexicon;
  previous?: Record<string, string>;
}

export function composeSection(
  index: number,
  input: ComposeInput,
  kinds: SectionKind[],
  usedElsewhere: Set<number>,
): NoteSectionDraft {
  const section = input.sections[index] as TemplateSection;
  const kind = kinds[index] as SectionKind;
  const routes = routeKinds(kinds);
  const mine = input.analysis.candidates.filter((c) => routes.get(c.kind) === index);
  if (kind === "hpi" && input.analysis.chiefComplaint && routes.get("chief_complaint") === undefined)
    mine.push(input.analysis.chiefComplaint);
  const sentences: NoteSentence[] = [];
  if (section.fixedText?.trim()) sentences.push({ text: section.fixedText, evidence: [], supported: true, source: "template" });
  sentences.push(
    ...fillPlaceholders(
      section.placeholders ?? [],
      input.sentences,
      input.language,
      `${section.title} ${section.instructions ?? ""}`,
    ),
  );
  const filled = new Set(sentences.map((s) => s.text));

  let chosen: Candidate[] = [];
  if (kind === "chief_complaint") {
    const cc = input.analysis.chiefComplaint;
    chosen = cc ? [cc] : [];
  } else {
    chosen = pick(mine, wordBudget(kind, section.verbosity), usedElsewhere, kind === "assessment_plan");
  }
  const lines = kind === "ros" && section.style === "bullets" ? groupBySystem(chosen) : mergeReviewLines(chosen, input.lexicon);
  for (const line of lines) {
    if (filled.has(line.text)) continue;
    sentences.push({
      text: line.text,
      evidence: evidenceOf(line.evidence),
      supported: line.evidence.length > 0,
      source: "transcript",
    });
  }
  for (const c of chosen) if (!c.derived) usedElsewhere.add(c.evidence[0]?.index ?? -1);

  const saidSomething = sentences.some((s) => s.source === "transcript");
  const previous = input.previous?.[section.key]?.trim();
  if (section.persistent && !saidSomething && previous) {
    for (const part of splitSentences(previous.replace(/^\s*[-•]\s*/gm, "").replace(/\n+/g, " ")))
      sentences.push({ text: part.text, evidence: [], supported: true, source: "previous" });
  }
  return { key: section.key, title: section.title, text: sectionText(sentences, section.style), sentences };
}

export function sectionKinds(sections: TemplateSection[], lexicon: Lexicon): SectionKind[] {
  return sections.map((s) => resolveKind(s, lexicon));
}
