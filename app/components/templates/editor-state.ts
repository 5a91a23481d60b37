import type { NoteLanguage, TemplateSection } from "#app/services/notes/model.ts";

// The editor's working copy of a template. Sections carry a local id for React and for moving
// them; placeholders are edited as one per line; a new section's key follows its title until
// someone edits the key (stored sections keep theirs: notes refer to sections by key).

export interface EditorSection extends Omit<TemplateSection, "placeholders"> {
  uid: string;
  placeholdersText: string;
  autoKey: boolean;
}

export interface EditorState {
  name: string;
  description: string;
  language: NoteLanguage;
  sections: EditorSection[];
}

let counter = 0;
const nextUid = () => `s${++counter}`;

export function toEditorSection(section: TemplateSection): EditorSection {
  const { placeholders, ...rest } = section;
  return { ...rest, uid: nextUid(), placeholdersText: (placeholders ?? []).join("\n"), autoKey: false };
}

export function fromEditorSection({ uid: _, placeholdersText, autoKey: __, ...rest }: EditorSection): TemplateSection {
  const placeholders = placeholdersText
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);
  const { layout, ...others } = rest;
  return {
    ...others,
    ...(layout && rest.kind === "assessment_plan" ? { layout } : {}),
    fixedText: others.fixedText?.trim() ? others.fixedText : undefined,
    instructions: others.instructions?.trim() ? others.instructions : undefined,
    ...(placeholders.length ? { placeholders } : {}),
  };
}

export function contentOf(state: EditorState) {
  return {
    name: state.name,
    language: state.language,
    description: state.description,
    sections: state.sections.map(fromEditorSection),
  };
}

/** A key from a title: ASCII letters and digits joined by underscores, unique in the template. */
export function keyFromTitle(title: string, taken: readonly string[]): string {
  const base =
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 34) || "section";
  let key = base;
  for (let n = 2; taken.includes(key); n += 1) key = `${base}_${n}`;
  return key;
}

export function newSection(title: string, taken: readonly string[]): EditorSection {
  return {
    uid: nextUid(),
    key: keyFromTitle(title, taken),
    title,
    kind: "other",
    header: "with_content",
    style: "prose",
    verbosity: "standard",
    persistent: false,
    placeholdersText: "",
    autoKey: true,
  };
}

export function move<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(to, 0, item);
  return copy;
}
