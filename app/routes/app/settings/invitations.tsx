import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import { EmptyState, Section } from "#app/components/ui/page.tsx";
import { ORG_ROLES, type OrgRole } from "#app/db/schema.ts";
import { localeFromPath } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { canGrantRole, MANAGER_ROLES, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { inviteByEmail, resendInvitationByEmail } from "#app/services/orgs/invitation-delivery.server.ts";
import { type InvitationListItem, listInvitations, revokeInvitation } from "#app/services/orgs/invitations.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/invitations";
import { InvitationsActionSchema } from "./invitations-schemas.ts";

/** Failures the page translates (invites.json "errors"); anything else is "unexpected". */
const FAILURE_CODES = [
  "invalid_input",
  "forbidden_role",
  "invitation_not_found",
  "invitation_used",
  "invitation_revoked",
  "member_limit_reached",
  "invitation_rate_limited",
  "unexpected",
] as const;
type FailureCode = (typeof FAILURE_CODES)[number];

/** Owners and admins only (docs/permissions.md); for anyone else the page does not exist. */
function requireManager(
  context: Route.LoaderArgs["context"],
  request: Request,
): OrgServiceArgs & { orgId: string; role: OrgRole } {
  const { user, org, role } = requireOrg(context);
  assertValidPage(MANAGER_ROLES.includes(role));
  return {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
    orgId: org.id,
    role,
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { role, ...args } = requireManager(context, request);
  const invitations = await listInvitations(args);
  return {
    timezone: requireOrg(context).org.timezone,
    grantableRoles: ORG_ROLES.filter((r) => canGrantRole(role, r)),
    invitations: invitations.map((inv) => ({
      ...inv,
      // Accepted and revoked invitations are history; an admin never touches an owner invitation.
      canManage: (inv.status === "pending" || inv.status === "expired") && canGrantRole(role, inv.role),
    })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { role: _role, ...args } = requireManager(context, request);
  const form = Object.fromEntries(await readForm(request));
  const parsed = InvitationsActionSchema.safeParse(form);
  const email = typeof form.email === "string" ? form.email.slice(0, 320) : "";
  if (!parsed.success) return data({ intent: "invalid", failure: "invalid_input" as FailureCode, email }, { status: 400 });
  const input = parsed.data;
  // The email goes out in the language of the page the inviter is using.
  const mail = { auth: context.get(runtimeContext).auth, locale: localeFromPath(pageUrl(request).pathname) };
  try {
    switch (input.intent) {
      case "invite": {
        const sent = await inviteByEmail({ ...args, email: input.email, role: input.role, mail });
        return { intent: input.intent, done: true, email: sent.email, id: sent.id };
      }
      case "resend": {
        const sent = await resendInvitationByEmail({ ...args, invitationId: input.invitationId, mail });
        return { intent: input.intent, done: true, email: sent.email, id: sent.id };
      }
      case "revoke":
        await revokeInvitation({ ...args, invitationId: input.invitationId });
        return { intent: input.intent, done: true, email: "", id: input.invitationId };
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    const code = (FAILURE_CODES as readonly string[]).includes(error.code) ? (error.code as FailureCode) : "unexpected";
    return data({ intent: input.intent, failure: code, email }, { status: error.status });
  }
}

type ActionResult = Route.ComponentProps["actionData"];

export default function InvitationsSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("invites");
  const { t: tUi } = useTranslation("ui");
  const busy = useNavigation().state === "submitting";
  const result = actionData as ActionResult;
  const failure = result && "failure" in result ? result.failure : null;
  const inviteFailed = failure && result?.intent !== "resend" && result?.intent !== "revoke";
  return (
    <div className="ui-stack" data-page="settings-invitations">
      <Feedback result={result} />
      <Section id="invite-form" title={t("settings.heading")} description={t("settings.intro")}>
        <h3 className="invite-form-heading">{t("form.heading")}</h3>
        {/* A new key after each invitation empties the form for the next one. */}
        <Form
          method="post"
          className="ui-form invite-form"
          key={result && "done" in result && result.intent === "invite" ? result.id : "invite"}
        >
          <input type="hidden" name="intent" value="invite" />
          <label>
            {t("form.email")}
            <input
              name="email"
              type="email"
              autoComplete="off"
              required
              maxLength={320}
              defaultValue={inviteFailed ? result?.email : ""}
              aria-invalid={inviteFailed ? true : undefined}
            />
          </label>
          <label>
            {t("form.role")}
            <select name="role" required defaultValue={loaderData.grantableRoles.includes("clinician") ? "clinician" : undefined}>
              {loaderData.grantableRoles.map((role) => (
                <option key={role} value={role}>
                  {t(`roles.${role}`)}
                </option>
              ))}
            </select>
          </label>
          <div className="ui-form-actions">
            <button type="submit" className="ui-button" aria-busy={busy}>
              {t("form.submit")}
            </button>
          </div>
        </Form>
      </Section>
      <Section id="invitation-list" title={t("list.heading")} flush={loaderData.invitations.length > 0}>
        {loaderData.invitations.length === 0 ? (
          <EmptyState icon="users" title={t("list.empty")} testId="invitations-empty">
            <p>{tUi("invitations.emptyBody")}</p>
          </EmptyState>
        ) : (
          <InvitationTable invitations={loaderData.invitations} timezone={loaderData.timezone} />
        )}
      </Section>
    </div>
  );
}

function Feedback({ result }: { result: ActionResult }) {
  const { t } = useTranslation("invites");
  if (!result) return null;
  if ("failure" in result) {
    return (
      <div role="alert" className="form-failure" data-code={result.failure}>
        <p>{t(`errors.${result.failure}`)}</p>
      </div>
    );
  }
  return (
    <p role="status" className="form-success">
      {result.intent === "invite"
        ? t("feedback.invited", { email: result.email })
        : result.intent === "resend"
          ? t("feedback.resent", { email: result.email })
          : t("feedback.revoked")}
    </p>
  );
}

function InvitationTable({
  invitations,
  timezone,
}: {
  invitations: (InvitationListItem & { canManage: boolean })[];
  timezone: string;
}) {
  const { t } = useTranslation("invites");
  const locale = useLocale();
  // The organisation's time zone, so the server's and the browser's rendering agree.
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: timezone });
  return (
    // Focusable and named, so a keyboard user can scroll it sideways on a narrow screen.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable).
    <section className="ui-table-wrap" tabIndex={0} aria-label={t("list.heading")}>
      <table className="ui-table">
        <thead>
          <tr>
            <th scope="col">{t("list.email")}</th>
            <th scope="col">{t("list.role")}</th>
            <th scope="col">{t("list.status")}</th>
            <th scope="col">{t("list.invitedBy")}</th>
            <th scope="col">{t("list.expires")}</th>
            <th scope="col">{t("list.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((inv) => (
            <tr key={inv.id} data-invitation-id={inv.id} data-status={inv.status}>
              <td>{inv.email}</td>
              <td>{t(`roles.${inv.role}`)}</td>
              <td>
                <StatusBadge tone={inv.status === "pending" ? "info" : inv.status === "accepted" ? "success" : "neutral"}>
                  {t(`status.${inv.status}`)}
                </StatusBadge>
              </td>
              <td>{inv.inviter_name ?? inv.inviter_email ?? t("list.formerMember")}</td>
              <td>
                <time dateTime={inv.expires_at}>{date.format(new Date(inv.expires_at))}</time>
              </td>
              <td>{inv.canManage ? <RowActions id={inv.id} email={inv.email} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RowActions({ id, email }: { id: string; email: string }) {
  const { t } = useTranslation("invites");
  return (
    <div className="form-actions">
      <Form method="post">
        <input type="hidden" name="invitationId" value={id} />
        <button
          type="submit"
          name="intent"
          value="resend"
          className="ui-button"
          data-variant="secondary"
          aria-label={t("list.resendLabel", { email })}
        >
          {t("list.resend")}
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name="invitationId" value={id} />
        <button
          type="submit"
          name="intent"
          value="revoke"
          className="ui-button"
          data-variant="ghost"
          aria-label={t("list.revokeLabel", { email })}
        >
          {t("list.revoke")}
        </button>
      </Form>
    </div>
  );
}
