// Candidates → the template's sections, honouring each section's options (fixed text, placeholders,
// persistent carry-forward, verbosity, bullets or prose). Empty sections stay empty.
import type { NoteLanguage, NoteSectionDraft, NoteSentence, SectionKind, TemplateSection } from "../../model.ts";
import type { Analysis, Candidate } from "./candidates.ts";
import type { Lexicon } from "./lexicon.ts";
import { fillPlaceholders } from "./placeholders.ts";
import { type Problem, problemNamedIn, withoutCue } from "./problems.ts";
import { finish, hasVerb, rewriteSentence } from "./rewrite.ts";
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

/**
 * A dangling fragment of the patient's story ("Probably since labor day, about 5 weeks.") joins the
 * sentence just before it when that was said a moment earlier; a short one with nothing in it is dropped.
 */
function mergeFragments(chosen: Candidate[], language: NoteLanguage): Candidate[] {
  const out: Candidate[] = [];
  for (const c of chosen) {
    if (!c.derived && c.role === "history" && !hasVerb(c.text, language)) {
      const last = out.at(-1);
      if (last && !last.derived && c.order - last.order <= 4 && wordCount(last.text) + wordCount(c.text) <= 45) {
        const tail = c.text.replace(/^(\p{Lu})(?=\p{Ll})/u, (l) => l.toLowerCase()).replace(/[.!?]+$/, "");
        out[out.length - 1] = {
          ...last,
          text: `${last.text.replace(/[.!?]+$/, "")}, ${tail}.`,
          evidence: [...last.evidence, ...c.evidence],
        };
        continue;
      }
      if (wordCount(c.text) < 4 && !/\d/.test(c.text)) continue;
    }
    out.push(c);
  }
  return out;
}

/** The patient's name from the record: said once in the note, then "the patient". */
export interface NameState {
  pattern: RegExp;
  said: boolean;
  replacement: string;
}

export function nameState(displayName: string | undefined, language: NoteLanguage): NameState | null {
  const parts = (displayName ?? "")
    .split(/\s+/)
    .map((p) => p.replace(/[^\p{L}'-]/gu, ""))
    .filter((p) => p.length >= 2);
  if (parts.length === 0) return null;
  const quote = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const titles = "(?:mr|mrs|ms|miss|dr|mx|m|mme|mlle|sr|sra|srta|señor|señora|monsieur|madame)\\.?\\s+";
  const full = parts.map(quote).join("\\s+");
  const each = parts.map(quote).join("|");
  const pattern = new RegExp(`(?<![\\p{L}])(?:${titles})?(?:${full}|${each})(?:\\s+(?:${each}))?(?![\\p{L}])`, "giu");
  const replacement = { en: "the patient", fr: "le patient", es: "el paciente" }[language];
  return { pattern, said: false, replacement };
}

function applyName(text: string, name: NameState | null | undefined): string {
  if (!name) return text;
  name.pattern.lastIndex = 0;
  if (!name.pattern.test(text)) return text;
  name.pattern.lastIndex = 0;
  if (!name.said) {
    name.said = true;
    return text;
  }
  const out = text.replace(name.pattern, name.replacement).replace(/\b(the patient|le patient|el paciente)'s\b/g, "$1's");
  return out.replace(/^(\p{Ll})/u, (c) => c.toUpperCase());
}

interface Line {
  text: string;
  evidence: Sentence[];
  pronounConflict?: boolean;
}

/** Problem-oriented (default) or assessment-then-plan blocks of an assessment-and-plan section. */
function assessmentPlanBlocks(
  chosen: Candidate[],
  problems: Problem[],
  layout: "problems" | "separate",
  language: NoteLanguage,
): { heading?: Line; lines: Line[] }[] {
  const planWord = { en: "Plan", fr: "Plan", es: "Plan" }[language];
  const plan = (c: Candidate) => c.role === "plan";
  const block = (items: Candidate[], heading?: Line) => {
    const lines: Line[] = [];
    let planned = false;
    for (const c of [...items.filter((c) => !plan(c)), ...items.filter(plan)]) {
      let text = c.text;
      if (plan(c) && !planned) {
        planned = true;
        text = `${planWord}: ${text}`;
      }
      const line: Line = { text, evidence: c.evidence };
      if (c.pronounConflict) line.pronounConflict = true;
      lines.push(line);
    }
    return heading ? { heading, lines } : { lines };
  };
  if (layout === "separate" || problems.length === 0) return [block(chosen)];
  const general: Candidate[] = [];
  const byProblem = new Map<Problem, Candidate[]>();
  const first = problems[0] as Problem;
  for (const c of chosen) {
    const order = c.order;
    const named = c.derived ? null : problemNamedIn(c.text, problems, language);
    let owner = named ?? [...problems].reverse().find((p) => p.at <= order) ?? null;
    // Before the first problem is taken up (the introduction, a general remark) the sentence stays general.
    if (!named && order < first.at) owner = null;
    if (!owner) {
      general.push(c);
      continue;
    }
    const stripped = c.evidence.some((e) => e.index === owner.at) ? withoutCue(c.text, owner) : c.text;
    if (stripped !== c.text) {
      // The rest of the sentence, read again now that it starts where its point starts.
      const rest = rewriteSentence(finish(stripped), c.role ?? "assessment", "clinician", language) ?? "";
      if (wordCount(rest) < 2) continue;
      byProblem.set(owner, [...(byProblem.get(owner) ?? []), { ...c, text: rest }]);
    } else byProblem.set(owner, [...(byProblem.get(owner) ?? []), c]);
  }
  const blocks = general.length > 0 ? [block(general)] : [];
  let n = 0;
  for (const problem of problems) {
    const items = byProblem.get(problem);
    if (!items?.length) continue;
    n += 1;
    const name = problem.name.charAt(0).toUpperCase() + problem.name.slice(1);
    blocks.push(block(items, { text: `${n}. ${name}`, evidence: [problem.evidence] }));
  }
  return blocks;
}

function toSentence(line: Line, name: NameState | null | undefined): NoteSentence {
  const sentence: NoteSentence = {
    text: applyName(line.text, name),
    evidence: evidenceOf(line.evidence),
    supported: line.evidence.length > 0,
    source: "transcript",
  };
  if (line.pronounConflict) sentence.flags = ["pronoun_conflict"];
  return sentence;
}

export interface ComposeInput {
  sections: TemplateSection[];
  analysis: Analysis;
  sentences: Sentence[];
  language: NoteLanguage;
  lexicon: Lexicon;
  previous?: Record<string, string>;
  /** The patient's name, said once (shared by the note's sections, in template order). */
  name?: NameState | null;
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
  for (const c of chosen) if (!c.derived) usedElsewhere.add(c.evidence[0]?.index ?? -1);
  if (kind === "hpi" || kind === "history") chosen = mergeFragments(chosen, input.language);
  if (kind === "assessment_plan") {
    const blocks = assessmentPlanBlocks(
      mergeReviewLines(chosen, input.lexicon),
      input.analysis.problems,
      section.layout ?? "problems",
      input.language,
    );
    const fixed = sentences.slice();
    const textLines: string[] = fixed.length ? [sectionText(fixed, section.style)] : [];
    for (const { heading, lines } of blocks) {
      const body = lines.filter((l) => !filled.has(l.text)).map((l) => toSentence(l, input.name));
      if (heading) {
        const head = toSentence(heading, input.name);
        // Prose: "1. Heart failure: first assessment sentence." — bullets: the heading on its own line.
        const firstBody = body[0];
        if (section.style === "prose" && firstBody && !/^Plan:/.test(firstBody.text)) {
          const merged: NoteSentence = {
            ...firstBody,
            text: `${head.text}: ${firstBody.text}`,
            evidence: [...head.evidence, ...firstBody.evidence],
          };
          body[0] = merged;
        } else body.unshift({ ...head, text: `${head.text}.` });
      }
      if (body.length === 0) continue;
      sentences.push(...body);
      if (section.style === "bullets" && heading) {
        const [top, ...rest] = body;
        textLines.push([top?.text ?? "", sectionText(rest, "bullets")].filter(Boolean).join("\n"));
      } else textLines.push(sectionText(body, section.style));
    }
    if (sentences.some((s) => s.source === "transcript") || !section.persistent)
      return { key: section.key, title: section.title, text: textLines.filter(Boolean).join("\n"), sentences };
    chosen = [];
  }
  const lines = kind === "ros" && section.style === "bullets" ? groupBySystem(chosen) : mergeReviewLines(chosen, input.lexicon);
  for (const line of lines) {
    if (filled.has(line.text)) continue;
    const sentence = toSentence(line, input.name);
    sentences.push(sentence);
  }

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
