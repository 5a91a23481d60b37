import { useTranslation } from "react-i18next";

/** The password policy the server enforces (app/services/auth/passwords.server.ts), in words. */
export function PasswordRules({ id }: { id: string }) {
  const { t } = useTranslation("auth");
  return (
    <small id={id} className="password-rules">
      {t("passwordRules.summary")}
    </small>
  );
}
