import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { MemberList } from "#app/components/org-settings/member-list.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { EmptyState, Section } from "#app/components/ui/page.tsx";
import { ORG_ROLES } from "#app/db/schema.ts";
import { localeFromPath } from "#app/i18n/config.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { canGrantRole, MANAGER_ROLES } from "#app/services/orgs/context.server.ts";
import { listMembers, removeMember, updateMemberRole } from "#app/services/orgs/members.server.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/members";
import { MemberActionSchema } from "./members-schemas.ts";
import { invalidForm, serviceFailure, settingsServiceArgs } from "./org-settings.server.ts";

// Settings → Members (issue 4): every member sees the list; owners and admins change roles and remove
// members within docs/permissions.md. The controls shown mirror the services' rules, which stay the
// authority (the last owner, for one, is only known to be the last when the database says so).
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, org, role } = requireOrg(context);
  const members = await listMembers(settingsServiceArgs(context, request));
  const joined = new Intl.DateTimeFormat(localeFromPath(pageUrl(request).pathname), {
    dateStyle: "medium",
    timeZone: org.timezone,
  });
  const manages = MANAGER_ROLES.includes(role);
  return {
    canInvite: manages,
    members: members.map((m) => {
      const mayManage = manages && canGrantRole(role, m.role);
      return {
        userId: m.user_id,
        name: m.full_name,
        email: m.email,
        role: m.role,
        joined: joined.format(new Date(m.joined_at)),
        isSelf: m.user_id === user.id,
        roleChoices: mayManage ? ORG_ROLES.filter((r) => canGrantRole(role, r)) : [],
        // Leaving is on the Organisation page, with its own confirmation.
        canRemove: mayManage && m.user_id !== user.id,
      };
    }),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const parsed = MemberActionSchema.safeParse(form);
  if (!parsed.success) return invalidForm("invalid", parsed.error);
  const input = parsed.data;
  const args = settingsServiceArgs(context, request);
  try {
    if (input.intent === "change-role") await updateMemberRole({ ...args, userId: input.userId, role: input.role });
    else await removeMember({ ...args, userId: input.userId });
  } catch (error) {
    return serviceFailure(input.intent, error, input.userId);
  }
  return { intent: input.intent, done: true, userId: input.userId };
}

export default function MembersSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("orgSettings");
  const { t: tUi } = useTranslation("ui");
  const to = useLocalizedPath();
  const invite = loaderData.canInvite ? (
    <Link to={to("/settings/invitations")} className="ui-button" data-variant="secondary">
      <Icon name="plus" size={16} />
      {tUi("members.invite")}
    </Link>
  ) : null;
  return (
    <div className="ui-stack" data-section="members">
      <Section
        id="members"
        title={t("members.heading")}
        description={t("members.intro", { count: loaderData.members.length })}
        actions={invite}
        flush
      >
        <MemberList members={loaderData.members} result={actionData} />
      </Section>
      {/* Alone in the organisation: say what the page is for and how to fill it. */}
      {loaderData.members.length === 1 ? (
        <EmptyState icon="users" title={tUi("members.aloneTitle")} action={invite} testId="members-alone">
          <p>{loaderData.canInvite ? tUi("members.aloneBody") : tUi("members.aloneBodyMember")}</p>
        </EmptyState>
      ) : null}
    </div>
  );
}
