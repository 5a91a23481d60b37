import type {
  AssessmentPlanLayout,
  HeaderMode,
  NoteLanguage,
  NoteTemplate,
  SectionKind,
  SectionStyle,
  Verbosity,
} from "../../model.ts";

// A built-in template is written once with its three languages side by side, so every language
// variant has the same section keys, kinds and options by construction; only the words differ.

export interface SectionWords {
  title: string;
  fixedText?: string;
  placeholders?: string[];
  instructions?: string;
}

export interface BuiltinSection {
  key: string;
  kind: SectionKind;
  header: HeaderMode;
  style: SectionStyle;
  verbosity: Verbosity;
  persistent: boolean;
  layout?: AssessmentPlanLayout;
  words: Record<NoteLanguage, SectionWords>;
}

export interface BuiltinTemplate {
  id: `builtin:${string}`;
  name: Record<NoteLanguage, string>;
  description: Record<NoteLanguage, string>;
  sections: BuiltinSection[];
}

interface SectionOptions {
  key: string;
  kind: SectionKind;
  header?: HeaderMode;
  style?: SectionStyle;
  verbosity?: Verbosity;
  persistent?: boolean;
  layout?: AssessmentPlanLayout;
}

/** A section with the defaults most sections use: header only with content, prose, standard length. */
export function section(options: SectionOptions, words: Record<NoteLanguage, SectionWords>): BuiltinSection {
  return {
    key: options.key,
    kind: options.kind,
    header: options.header ?? "with_content",
    style: options.style ?? "prose",
    verbosity: options.verbosity ?? "standard",
    persistent: options.persistent ?? false,
    ...(options.layout ? { layout: options.layout } : {}),
    words,
  };
}

/** The template in one language, shaped like a stored one. */
export function inLanguage(template: BuiltinTemplate, language: NoteLanguage): NoteTemplate {
  return {
    id: template.id,
    name: template.name[language],
    language,
    description: template.description[language],
    sections: template.sections.map((s) => {
      const words = s.words[language];
      return {
        key: s.key,
        title: words.title,
        kind: s.kind,
        ...(words.fixedText ? { fixedText: words.fixedText } : {}),
        ...(words.placeholders?.length ? { placeholders: [...words.placeholders] } : {}),
        ...(words.instructions ? { instructions: words.instructions } : {}),
        header: s.header,
        style: s.style,
        verbosity: s.verbosity,
        persistent: s.persistent,
        ...(s.layout ? { layout: s.layout } : {}),
      };
    }),
  };
}
