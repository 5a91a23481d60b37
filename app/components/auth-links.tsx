import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";

const TARGETS = {
  login: "/login",
  signup: "/signup",
  resetPassword: "/reset-password",
  pricing: "/pricing",
  support: "/support",
} as const;

/** Links between the sign-in journeys, e.g. "No account yet? Start your free trial". */
export function AuthLinks({ show }: { show: (keyof typeof TARGETS)[] }) {
  const { t } = useTranslation("auth");
  const to = useLocalizedPath();
  return (
    <ul className="auth-links">
      {show.map((key) => (
        <li key={key}>
          <Link to={to(TARGETS[key])}>{t(`links.${key}`)}</Link>
        </li>
      ))}
    </ul>
  );
}
