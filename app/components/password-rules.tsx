import { useId } from "react";
import { useTranslation } from "react-i18next";
import { MIN_PASSWORD_LENGTH } from "#app/utils/password-policy.ts";

/** The password policy the server enforces (app/services/auth/passwords.server.ts), in words. */
export function PasswordRules({ id }: { id: string }) {
  const { t } = useTranslation("auth");
  return (
    <small id={id} className="password-rules">
      {t("passwordRules.summary")}
    </small>
  );
}

/** A labelled new-password input followed by the policy it must meet (sign-up, reset, settings). */
export function NewPasswordField({ label }: { label: string }) {
  const rulesId = useId();
  return (
    <>
      <label>
        {label}
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          aria-describedby={rulesId}
        />
      </label>
      <PasswordRules id={rulesId} />
    </>
  );
}
