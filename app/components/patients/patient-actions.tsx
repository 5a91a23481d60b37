import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import { Icon } from "../ui/icons.tsx";
import { Section } from "../ui/page.tsx";
import { VisitTemplateField } from "../visits/visit-template-field.tsx";

const LANGUAGES = ["en", "fr", "es"] as const;

function LanguageField({ id }: { id: string }) {
  const { t } = useTranslation("app");
  const locale = useLocale();
  return (
    <label htmlFor={id}>
      {t("visits.start.language")}
      <select id={id} name="language" defaultValue={locale}>
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`visits.languages.${lng}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

function ConsentField({ id }: { id: string }) {
  const { t } = useTranslation("app");
  return (
    <label htmlFor={id} className="patient-consent">
      <input id={id} type="checkbox" name="consent" required />
      {t("visits.start.consent")}
    </label>
  );
}

/**
 * The patient page's actions (issue 29): start a visit (posted to /transcribing's own start
 * action, so the visit starts exactly as it does there), upload a recording (this page's action,
 * the same upload service as the API), open a periodontal exam, ask about this patient.
 */
export function PatientActions({ patientId, error }: { patientId: string; error?: string | null }) {
  const { t } = useTranslation("patients");
  const { t: tApp } = useTranslation("app");
  const to = useLocalizedPath();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="patient-actions">
      <Section id="start-visit" title={t("record.startVisit")}>
        <Form method="post" action={to("/transcribing")} className="ui-form" data-testid="patient-start-visit">
          <input type="hidden" name="patient_id" value={patientId} />
          <input type="hidden" name="intent" value="start" />
          <LanguageField id="start-language" />
          <VisitTemplateField id="start-template" />
          <ConsentField id="start-consent" />
          <div className="ui-form-actions">
            <button type="submit" className="ui-button" disabled={busy}>
              <Icon name="mic" size={16} />
              {t("record.startVisit")}
            </button>
          </div>
        </Form>
      </Section>
      <Section id="upload-recording" title={t("record.upload")}>
        <Form method="post" encType="multipart/form-data" className="ui-form" data-testid="patient-upload">
          <input type="hidden" name="intent" value="upload" />
          <label htmlFor="upload-file">
            {t("record.uploadFile")}
            <input
              id="upload-file"
              type="file"
              name="audio"
              accept="audio/*,video/webm,.mp3,.m4a,.wav,.ogg,.opus,.webm,.flac"
              required
            />
          </label>
          <LanguageField id="upload-language" />
          <VisitTemplateField id="upload-template" />
          <ConsentField id="upload-consent" />
          {error ? (
            <p role="alert" className="form-failure" data-code={error}>
              {tApp(`visits.errors.${error}`, { defaultValue: tApp("visits.errors.failed") })}
            </p>
          ) : null}
          <div className="ui-form-actions">
            <button type="submit" className="ui-button" data-variant="secondary" disabled={busy}>
              <Icon name="upload" size={16} />
              {t("record.uploadSubmit")}
            </button>
          </div>
        </Form>
      </Section>
      <nav className="patient-links" aria-label={t("record.more_actions")}>
        <Link to={`${to("/periodontal-chart")}?patient_id=${patientId}`} className="ui-button" data-variant="secondary">
          <Icon name="chart" size={16} />
          {t("record.perio")}
        </Link>
        <Link to={`${to("/records-qa")}?patient=${patientId}`} className="ui-button" data-variant="secondary">
          <Icon name="chat" size={16} />
          {t("record.ask")}
        </Link>
      </nav>
    </div>
  );
}
