import { useTranslation } from "react-i18next";

/** What a settings form's action answered: a stable failure code, or done. */
export interface SettingsResult {
  intent: string;
  failure?: { code: string };
  done?: boolean;
  userId?: string;
}

/**
 * A service or validation failure in the page's language (codes: orgSettings.json "errors", and
 * ui.json "settingsErrors" for the codes issue 11 added).
 */
export function SettingsFailure({ failure }: { failure?: { code: string } | null }) {
  const { t } = useTranslation(["orgSettings", "ui"]);
  if (!failure) return null;
  return (
    <p role="alert" className="form-failure" data-code={failure.code}>
      {t(`ui:settingsErrors.${failure.code}`, {
        defaultValue: t(`orgSettings:errors.${failure.code}`, { defaultValue: t("orgSettings:errors.unexpected") }),
      })}
    </p>
  );
}

/** A short, announced confirmation after a successful save. */
export function SettingsDone({ message }: { message: string }) {
  return (
    <p role="status" className="form-done">
      {message}
    </p>
  );
}

/** The result of `intent`, if the last submission was that form's. */
export function resultFor(result: SettingsResult | undefined, intent: string): SettingsResult | undefined {
  return result?.intent === intent || result?.intent === "invalid" ? result : undefined;
}
