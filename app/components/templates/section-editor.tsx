import { useTranslation } from "react-i18next";
import { AP_LAYOUTS, SECTION_KINDS } from "#app/services/notes/model.ts";
import type { EditorSection } from "./editor-state.ts";

const HEADERS = ["always", "with_content", "never"] as const;
const STYLES = ["bullets", "prose"] as const;
const VERBOSITIES = ["concise", "standard", "detailed"] as const;

/** One section's fields, with its move and remove buttons. */
export function SectionEditor({
  section,
  index,
  count,
  readOnly,
  onChange,
  onMove,
  onRemove,
}: {
  section: EditorSection;
  index: number;
  count: number;
  readOnly: boolean;
  onChange: (patch: Partial<EditorSection>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("templates");
  const id = (field: string) => `section-${section.uid}-${field}`;
  return (
    <fieldset className="templates-section" data-testid="section-editor" data-key={section.key} disabled={readOnly}>
      <legend>{t("editor.sectionLegend", { number: index + 1, title: section.title || t("editor.untitled") })}</legend>
      <div className="templates-grid">
        <label htmlFor={id("title")}>
          {t("section.title")}
          <input
            id={id("title")}
            value={section.title}
            maxLength={120}
            required
            onChange={(e) => onChange({ title: e.target.value })}
          />
        </label>
        <label htmlFor={id("key")}>
          {t("section.key")}
          <input
            id={id("key")}
            value={section.key}
            maxLength={40}
            pattern="[a-z0-9_]{1,40}"
            aria-describedby={id("key-hint")}
            onChange={(e) => onChange({ key: e.target.value, autoKey: false })}
          />
          <small id={id("key-hint")}>{t("section.keyHint")}</small>
        </label>
        <label htmlFor={id("kind")}>
          {t("section.kind")}
          <select
            id={id("kind")}
            value={section.kind}
            onChange={(e) => onChange({ kind: e.target.value as EditorSection["kind"] })}
          >
            {SECTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={id("header")}>
          {t("section.header")}
          <select
            id={id("header")}
            value={section.header}
            onChange={(e) => onChange({ header: e.target.value as EditorSection["header"] })}
          >
            {HEADERS.map((h) => (
              <option key={h} value={h}>
                {t(`headers.${h}`)}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={id("style")}>
          {t("section.style")}
          <select
            id={id("style")}
            value={section.style}
            onChange={(e) => onChange({ style: e.target.value as EditorSection["style"] })}
          >
            {STYLES.map((s) => (
              <option key={s} value={s}>
                {t(`styles.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={id("verbosity")}>
          {t("section.verbosity")}
          <select
            id={id("verbosity")}
            value={section.verbosity}
            onChange={(e) => onChange({ verbosity: e.target.value as EditorSection["verbosity"] })}
          >
            {VERBOSITIES.map((v) => (
              <option key={v} value={v}>
                {t(`verbosities.${v}`)}
              </option>
            ))}
          </select>
        </label>
        {section.kind === "assessment_plan" ? (
          <label htmlFor={id("layout")}>
            {t("section.layout")}
            <select
              id={id("layout")}
              value={section.layout ?? "problems"}
              onChange={(e) => onChange({ layout: e.target.value as EditorSection["layout"] })}
            >
              {AP_LAYOUTS.map((l) => (
                <option key={l} value={l}>
                  {t(`layouts.${l}`)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <label htmlFor={id("fixed")}>
        {t("section.fixedText")}
        <textarea
          id={id("fixed")}
          rows={2}
          maxLength={4000}
          value={section.fixedText ?? ""}
          onChange={(e) => onChange({ fixedText: e.target.value })}
        />
        <small>{t("section.fixedTextHint")}</small>
      </label>
      <label htmlFor={id("placeholders")}>
        {t("section.placeholders")}
        <textarea
          id={id("placeholders")}
          rows={2}
          value={section.placeholdersText}
          onChange={(e) => onChange({ placeholdersText: e.target.value })}
        />
        <small>{t("section.placeholdersHint")}</small>
      </label>
      <label htmlFor={id("instructions")}>
        {t("section.instructions")}
        <textarea
          id={id("instructions")}
          rows={2}
          maxLength={2000}
          value={section.instructions ?? ""}
          onChange={(e) => onChange({ instructions: e.target.value })}
        />
        <small>{t("section.instructionsHint")}</small>
      </label>
      <label>
        <input type="checkbox" checked={section.persistent} onChange={(e) => onChange({ persistent: e.target.checked })} />
        {t("section.persistent")}
      </label>
      {readOnly ? null : (
        <div className="templates-section-actions">
          <button
            type="button"
            className="ui-button"
            data-variant="ghost"
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            {t("editor.moveUp")}
          </button>
          <button
            type="button"
            className="ui-button"
            data-variant="ghost"
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            {t("editor.moveDown")}
          </button>
          <button type="button" className="ui-button" data-variant="ghost" disabled={count === 1} onClick={onRemove}>
            {t("editor.remove")}
          </button>
        </div>
      )}
    </fieldset>
  );
}
