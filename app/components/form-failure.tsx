import { useTranslation } from "react-i18next";

/** A translated, announced error for an auth form (codes from app/services/session/sign-in.server.ts). */
export function FormFailure({ failure }: { failure?: { code: string; reasons?: string[] } | null }) {
  const { t } = useTranslation("auth");
  if (!failure) return null;
  return (
    <div role="alert" className="form-failure" data-code={failure.code}>
      <p>{t(`errors.${failure.code}`, { defaultValue: t("errors.unexpected") })}</p>
      {failure.reasons?.length ? (
        <ul>
          {failure.reasons.map((r) => (
            <li key={r}>{t(`passwordRules.${r}`, { defaultValue: r })}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
