import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { OrgRole } from "#app/db/schema.ts";
import { SettingsDone, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

export interface MemberRow {
  userId: string;
  name: string | null;
  email: string | null;
  role: OrgRole;
  joined: string;
  isSelf: boolean;
  /** The roles the viewer may set for this member (empty: no role control). */
  roleChoices: OrgRole[];
  canRemove: boolean;
}

/** Settings → Members as a stacked list, one card per member, so it reads at 360 px. */
export function MemberList({ members, result }: { members: MemberRow[]; result?: SettingsResult }) {
  const { t } = useTranslation("orgSettings");
  const general = result?.failure && !result.userId ? result.failure : null;
  return (
    // Cards rather than a table or a bulleted list: Pico styles <article> without extra CSS.
    <div className="member-list" data-count={members.length}>
      <SettingsFailure failure={general} />
      {result?.intent === "remove" && result.done ? <SettingsDone message={t("members.removed")} /> : null}
      {members.map((member) => (
        <MemberItem key={member.userId} member={member} result={result?.userId === member.userId ? result : undefined} />
      ))}
    </div>
  );
}

function MemberItem({ member, result }: { member: MemberRow; result?: SettingsResult }) {
  const { t } = useTranslation(["orgSettings", "org"]);
  const label = member.name ?? member.email ?? member.userId.slice(0, 8);
  return (
    <article data-member={member.userId} data-role={member.role}>
      <header>
        <strong>{label}</strong>
        {member.isSelf ? ` (${t("members.you")})` : null}
        {member.name && member.email ? (
          <>
            <br />
            <small>{member.email}</small>
          </>
        ) : null}
      </header>
      <p>
        {t("members.role")}: <strong>{t(`org:roles.${member.role}`)}</strong>
        <br />
        <small>{t("members.joined", { date: member.joined })}</small>
      </p>
      {member.roleChoices.length > 0 ? (
        <Form method="post">
          <input type="hidden" name="intent" value="change-role" />
          <input type="hidden" name="userId" value={member.userId} />
          <select name="role" defaultValue={member.role} aria-label={t("members.roleFor", { name: label })} key={member.role}>
            {member.roleChoices.map((role) => (
              <option key={role} value={role}>
                {t(`org:roles.${role}`)}
              </option>
            ))}
          </select>
          <button type="submit">{t("members.saveRole")}</button>
        </Form>
      ) : null}
      {member.canRemove ? (
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(t("members.removeConfirm", { name: label }))) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="userId" value={member.userId} />
          <button type="submit" className="secondary outline">
            {t("members.remove")}
          </button>
        </Form>
      ) : null}
      <SettingsFailure failure={result?.failure} />
      {result?.intent === "change-role" && result.done ? <SettingsDone message={t("members.roleSaved")} /> : null}
    </article>
  );
}
