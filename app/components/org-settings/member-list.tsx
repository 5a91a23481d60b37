import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { OrgRole } from "#app/db/schema.ts";
import { StatusBadge } from "../ui/badge.tsx";
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
    // Rows that stack their controls under the name below 640 px, so the list reads at 360 px.
    <div className="member-list" data-count={members.length}>
      <SettingsFailure failure={general} />
      {result?.intent === "remove" && result.done ? <SettingsDone message={t("members.removed")} /> : null}
      <ul className="member-rows">
        {members.map((member) => (
          <MemberItem key={member.userId} member={member} result={result?.userId === member.userId ? result : undefined} />
        ))}
      </ul>
    </div>
  );
}

function MemberItem({ member, result }: { member: MemberRow; result?: SettingsResult }) {
  const { t } = useTranslation(["orgSettings", "org"]);
  const label = member.name ?? member.email ?? member.userId.slice(0, 8);
  return (
    <li className="member-row" data-member={member.userId} data-role={member.role}>
      <span className="member-avatar" aria-hidden="true">
        {label.slice(0, 1).toUpperCase()}
      </span>
      <div className="member-who">
        <strong>
          {label}
          {member.isSelf ? ` (${t("members.you")})` : null}
        </strong>
        {member.name && member.email ? (
          <small className="ui-truncate" title={member.email}>
            {member.email}
          </small>
        ) : null}
        <small>{t("members.joined", { date: member.joined })}</small>
      </div>
      <div className="member-role">
        <span className="sr-only">{t("members.role")}: </span>
        <StatusBadge tone={member.role === "owner" ? "info" : "neutral"}>{t(`org:roles.${member.role}`)}</StatusBadge>
      </div>
      <div className="member-actions form-actions">
        {member.roleChoices.length > 0 ? (
          <Form method="post" className="form-actions">
            <input type="hidden" name="intent" value="change-role" />
            <input type="hidden" name="userId" value={member.userId} />
            <select name="role" defaultValue={member.role} aria-label={t("members.roleFor", { name: label })} key={member.role}>
              {member.roleChoices.map((role) => (
                <option key={role} value={role}>
                  {t(`org:roles.${role}`)}
                </option>
              ))}
            </select>
            <button type="submit" className="ui-button" data-variant="secondary">
              {t("members.saveRole")}
            </button>
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
            <button type="submit" className="ui-button" data-variant="ghost">
              {t("members.remove")}
            </button>
          </Form>
        ) : null}
      </div>
      <div className="member-feedback">
        <SettingsFailure failure={result?.failure} />
        {result?.intent === "change-role" && result.done ? <SettingsDone message={t("members.roleSaved")} /> : null}
      </div>
    </li>
  );
}
