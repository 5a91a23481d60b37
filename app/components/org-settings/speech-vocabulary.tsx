import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Section } from "../ui/page.tsx";
import { resultFor, SettingsDone, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

/** What the organisation page's loader gives owners (app/services/orgs/vocabulary.server.ts, date formatted). */
export interface SpeechVocabularyView {
  customTerms: string[];
  learned: Record<"clinician" | "template" | "note", { words: string[]; total: number }>;
  refreshedAt: string | null;
}

const SOURCES = ["clinician", "template", "note"] as const;

/**
 * Settings → Organisation, owners only (ADR 0032): the practice's own words for the embedded speech
 * engine — the list the owner types, and what Murmur learned from clinicians' names, templates and
 * signed notes. The words stay in this organisation: no other practice's transcription uses them.
 */
export function SpeechVocabulary({ view, result }: { view: SpeechVocabularyView; result?: SettingsResult }) {
  const { t } = useTranslation("orgSettings");
  const own = resultFor(result, "vocabulary");
  return (
    <Section id="org-speech-vocabulary" title={t("vocabulary.heading")} description={t("vocabulary.body")}>
      <div data-testid="speech-vocabulary" className="ui-stack">
        <Form method="post" className="ui-stack">
          <input type="hidden" name="intent" value="vocabulary" />
          <label htmlFor="vocabulary-terms">{t("vocabulary.label")}</label>
          <p id="vocabulary-terms-hint" className="text-sm text-muted">
            {t("vocabulary.hint")}
          </p>
          <textarea
            id="vocabulary-terms"
            name="terms"
            rows={6}
            aria-describedby="vocabulary-terms-hint"
            defaultValue={view.customTerms.join("\n")}
            data-testid="vocabulary-terms"
            spellCheck={false}
          />
          <SettingsFailure failure={own?.failure} />
          {own?.done ? <SettingsDone message={t("vocabulary.saved")} /> : null}
          <div>
            <button type="submit" className="ui-button" data-testid="vocabulary-save">
              {t("vocabulary.save")}
            </button>
          </div>
        </Form>
        <h3>{t("vocabulary.learnedHeading")}</h3>
        <dl className="speech-vocabulary-learned" data-testid="vocabulary-learned">
          {SOURCES.map((source) => (
            <div key={source}>
              <dt>{t(`vocabulary.sources.${source}`, { count: view.learned[source].total })}</dt>
              <dd lang="en" data-source={source}>
                {view.learned[source].words.length ? view.learned[source].words.join(", ") : t("vocabulary.none")}
                {view.learned[source].total > view.learned[source].words.length
                  ? ` ${t("vocabulary.more", { count: view.learned[source].total - view.learned[source].words.length })}`
                  : ""}
              </dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-muted" data-testid="vocabulary-refreshed">
          {view.refreshedAt ? t("vocabulary.refreshed", { date: view.refreshedAt }) : t("vocabulary.neverRefreshed")}
        </p>
      </div>
    </Section>
  );
}
