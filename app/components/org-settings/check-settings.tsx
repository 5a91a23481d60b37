import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Section } from "../ui/page.tsx";
import { resultFor, SettingsDone, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

/** The kinds an owner may make advisory (ADVISORY_CHECK_KINDS); the others always gate. */
const KINDS = ["low_confidence", "omission"] as const;

/**
 * Settings → Organisation, owners only (issue 27, ADR 0039): which checks merely advise before a
 * signature. Contradictions and unsupported sentences always gate; the page says so. A plain form
 * post (intent "checks"), the same service and audit as PUT /api/orgs/:id/note-checks.
 */
export function CheckSettings({
  advisory,
  saved,
  result,
}: {
  advisory: readonly string[];
  saved: boolean;
  result?: SettingsResult;
}) {
  const { t } = useTranslation("checks");
  const own = resultFor(result, "checks");
  return (
    <Section id="org-note-checks" title={t("settings.heading")} description={t("settings.body")}>
      <Form method="post" className="ui-stack" data-testid="check-settings">
        <input type="hidden" name="intent" value="checks" />
        <fieldset className="check-settings-kinds">
          <legend>{t("settings.legend")}</legend>
          {KINDS.map((kind) => (
            <label key={kind} className="check-settings-kind">
              <input
                type="checkbox"
                name="advisory"
                value={kind}
                defaultChecked={advisory.includes(kind)}
                data-testid={`check-settings-${kind}`}
              />{" "}
              {t(`settings.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>
        <p data-testid="check-settings-always">{t("settings.always")}</p>
        <SettingsFailure failure={own?.failure} />
        {saved && !own ? <SettingsDone message={t("settings.saved")} /> : null}
        <div>
          <button type="submit" className="ui-button" data-variant="secondary" data-testid="check-settings-save">
            {t("settings.save")}
          </button>
        </div>
      </Form>
    </Section>
  );
}
