import { useState } from "react";
import { useTranslation } from "react-i18next";

/** Shown when a deep link moved the user into another of their organisations (issue 4). */
export function OrgSwitchNotice({ orgName }: { orgName: string }) {
  const { t } = useTranslation("org");
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <div role="status" className="org-switch-notice" data-testid="org-switch-notice">
      <p>{t("notice.switched", { name: orgName })}</p>
      <button type="button" className="outline secondary" onClick={() => setOpen(false)}>
        {t("notice.dismiss")}
      </button>
    </div>
  );
}
