import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Section } from "../ui/page.tsx";
import { resultFor, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

/** Any member may leave; the last owner is refused by the server (409 last_owner, docs/permissions.md). */
export function LeaveOrganization({ orgName, result }: { orgName: string; result?: SettingsResult }) {
  const { t } = useTranslation("orgSettings");
  return (
    <Section id="org-leave" title={t("organization.leave.heading")} description={t("organization.leave.body")}>
      <Form
        method="post"
        onSubmit={(event) => {
          if (!window.confirm(t("organization.leave.confirm", { name: orgName }))) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="leave" />
        <SettingsFailure failure={resultFor(result, "leave")?.failure} />
        <button type="submit" className="ui-button" data-variant="danger">
          {t("organization.leave.button")}
        </button>
      </Form>
    </Section>
  );
}
