import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { resultFor, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

/** Any member may leave; the last owner is refused by the server (409 last_owner, docs/permissions.md). */
export function LeaveOrganization({ orgName, result }: { orgName: string; result?: SettingsResult }) {
  const { t } = useTranslation("orgSettings");
  return (
    <article aria-labelledby="org-leave-heading">
      <h3 id="org-leave-heading">{t("organization.leave.heading")}</h3>
      <p>{t("organization.leave.body")}</p>
      <Form
        method="post"
        onSubmit={(event) => {
          if (!window.confirm(t("organization.leave.confirm", { name: orgName }))) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="leave" />
        <SettingsFailure failure={resultFor(result, "leave")?.failure} />
        <button type="submit" className="secondary">
          {t("organization.leave.button")}
        </button>
      </Form>
    </article>
  );
}
