import { useTranslation } from "react-i18next";
import { AuthCard } from "#app/components/auth-card.tsx";
import { AuthLinks } from "#app/components/auth-links.tsx";

export default function Page() {
  const { t } = useTranslation("auth");
  return (
    <AuthCard page="acceptInvite">
      <p>{t("acceptInvite.body")}</p>
      <AuthLinks show={["login", "signup"]} />
    </AuthCard>
  );
}
