import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "#app/components/auth-card.tsx";
import { AuthLinks } from "#app/components/auth-links.tsx";
import type { OrgRole } from "#app/db/schema.ts";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { clearOrgCookieHeader, orgCookieHeader } from "#app/services/org-context/cookie.ts";
import { getInvitationPreview, isInvitedEmail } from "#app/services/orgs/invitation-preview.server.ts";
import { acceptInvitation } from "#app/services/orgs/invitations.server.ts";
import { getUser, requireUser } from "#app/services/session/guards.server.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { formatInZone } from "#app/utils/zoned-time.ts";
import type { Route } from "./+types/accept-invite";
import { AcceptInviteActionSchema, InvitationTokenSchema } from "./accept-invite-schemas.ts";

/** Codes the page translates (invites.json "errors"), the same as the API's. */
const INVITE_ERROR_CODES = [
  "invitation_invalid",
  "invitation_expired",
  "invitation_revoked",
  "invitation_used",
  "invitation_email_mismatch",
  "unexpected",
] as const;
type InviteErrorCode = (typeof INVITE_ERROR_CODES)[number];

function inviteErrorCode(code: string): InviteErrorCode {
  return (INVITE_ERROR_CODES as readonly string[]).includes(code) ? (code as InviteErrorCode) : "unexpected";
}

/** A token that is not pending, and its status (docs/api.md codes: 404 unknown, 410 expired or revoked, 409 used). */
const STATE_ERRORS = {
  expired: { code: "invitation_expired", status: 410 },
  revoked: { code: "invitation_revoked", status: 410 },
  used: { code: "invitation_used", status: 409 },
} as const satisfies Record<string, { code: InviteErrorCode; status: number }>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const user = getUser(context);
  // A session still owing its second factor is not signed in yet: the login page asks for the code.
  const signedIn = user && !user.mfaRequired ? user : null;
  const raw = url.searchParams.get("token");
  // Reached without the emailed link (e.g. from a bookmark): explain rather than fail.
  if (!raw) return data({ view: "missing" as const, signedIn: !!signedIn });
  const token = InvitationTokenSchema.safeParse(raw);
  const preview = token.success
    ? await getInvitationPreview({ db: context.get(runtimeContext).db, viewerId: signedIn?.id ?? null, token: token.data })
    : null;
  if (!preview)
    return data({ view: "error" as const, code: "invitation_invalid" as InviteErrorCode, signedIn: !!signedIn }, { status: 404 });
  if (preview.state !== "pending") {
    const { code, status } = STATE_ERRORS[preview.state];
    return data({ view: "error" as const, code: code as InviteErrorCode, signedIn: !!signedIn }, { status });
  }
  const locale = localeFromPath(url.pathname);
  // Sign-in and sign-up come back to this very page (the canonical link, whatever else the URL held).
  const back = `${localizePath("/accept-invite", locale)}?${new URLSearchParams({ token: raw })}`;
  const loginQuery = new URLSearchParams({ redirectTo: back });
  if (user?.mfaRequired) loginQuery.set("step", "mfa");
  const viewer: InvitationView["viewer"] = !signedIn
    ? "anonymous"
    : isInvitedEmail(preview, signedIn.email)
      ? "match"
      : "mismatch";
  return data(
    {
      view: "invitation" as const,
      signedIn: !!signedIn,
      token: raw,
      viewer,
      viewerEmail: signedIn?.email ?? null,
      invitation: {
        orgName: preview.orgName,
        inviterName: preview.inviterName,
        inviterEmail: preview.inviterEmail,
        email: preview.email,
        role: preview.role,
        expiresAt: preview.expiresAt,
        timeZone: preview.orgTimezone,
      },
      links: {
        login: `${localizePath("/login", locale)}?${loginQuery}`,
        signup: `${localizePath("/signup", locale)}?${new URLSearchParams({ redirectTo: back, email: preview.email })}`,
      },
    },
    // Like POST /api/invitations/accept: this session cannot accept an invitation sent to someone else.
    { status: viewer === "mismatch" ? 403 : 200 },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrl(request);
  const locale = localeFromPath(url.pathname);
  const parsed = AcceptInviteActionSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ failure: "invitation_invalid" as InviteErrorCode }, { status: 404 });
  const back = `${localizePath("/accept-invite", locale)}?${new URLSearchParams({ token: parsed.data.token })}`;
  if (parsed.data.intent === "signOut") {
    // Signed in with another account: sign out here and come back, so the right account can sign in.
    await context.get(supabaseContext)?.supabase.auth.signOut({ scope: "local" });
    throw redirect(back, { headers: { "Set-Cookie": clearOrgCookieHeader() } });
  }
  const user = requireUser(context, request);
  let accepted: { org_id: string };
  try {
    accepted = await acceptInvitation({
      db: context.get(runtimeContext).db,
      actor: { userId: user.id },
      meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
      token: parsed.data.token,
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return data({ failure: inviteErrorCode(error.code) }, { status: error.status });
  }
  // The new organisation becomes the current one (the app layout checks the cookie against memberships).
  throw redirect(localizePath("/dashboard", locale), {
    headers: { "Set-Cookie": orgCookieHeader(accepted.org_id, secureCookies(request, context)) },
  });
}

export default function AcceptInvite({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("invites");
  const failure = actionData?.failure ?? null;
  return (
    <AuthCard page="acceptInvite">
      {failure ? <InviteFailure code={failure} /> : null}
      {loaderData.view === "missing" ? (
        <>
          <p>{t("accept.missing")}</p>
          {loaderData.signedIn ? <DashboardLink /> : <AuthLinks show={["login", "signup"]} />}
        </>
      ) : loaderData.view === "error" ? (
        <>
          <InviteFailure code={loaderData.code} />
          {loaderData.code === "invitation_used" ? <p>{t("accept.usedHint")}</p> : null}
          {loaderData.signedIn ? <DashboardLink /> : <AuthLinks show={["login"]} />}
        </>
      ) : (
        <InvitationDetails data={loaderData} />
      )}
    </AuthCard>
  );
}

interface InvitationView {
  token: string;
  viewer: "anonymous" | "match" | "mismatch";
  viewerEmail: string | null;
  invitation: {
    orgName: string;
    inviterName: string | null;
    inviterEmail: string | null;
    email: string;
    role: OrgRole;
    expiresAt: string;
    /** The inviting organisation's time zone. */
    timeZone: string;
  };
  links: { login: string; signup: string };
}

function InvitationDetails({ data: view }: { data: InvitationView }) {
  const { t } = useTranslation("invites");
  const locale = useLocale();
  const busy = useNavigation().state === "submitting";
  const { invitation } = view;
  const inviter = invitation.inviterName ?? invitation.inviterEmail ?? "—";
  // On the inviting organisation's clock, as its Settings → Invitations shows it; an explicit zone
  // also makes the server's and the browser's rendering agree.
  const expires = formatInZone(invitation.expiresAt, locale, invitation.timeZone, { dateStyle: "long" });
  return (
    <>
      <p>{t("accept.summary", { inviter, org: invitation.orgName })}</p>
      <dl className="invitation-details">
        <dt>{t("accept.organization")}</dt>
        <dd data-testid="invitation-org">{invitation.orgName}</dd>
        <dt>{t("accept.invitedBy")}</dt>
        <dd>
          {invitation.inviterName && invitation.inviterEmail ? `${invitation.inviterName} (${invitation.inviterEmail})` : inviter}
        </dd>
        <dt>{t("accept.role")}</dt>
        <dd>{t(`roles.${invitation.role}`)}</dd>
        <dt>{t("accept.invitedEmail")}</dt>
        <dd>{invitation.email}</dd>
        <dt>{t("accept.expires")}</dt>
        <dd>
          <time dateTime={invitation.expiresAt}>{expires}</time>
        </dd>
      </dl>
      {view.viewer === "anonymous" ? (
        <>
          <p>{t("accept.signedOut", { email: invitation.email })}</p>
          <div className="form-actions">
            <Link role="button" className="ui-button" to={view.links.login}>
              {t("accept.signIn")}
            </Link>
            <Link role="button" className="ui-button" data-variant="secondary" to={view.links.signup}>
              {t("accept.createAccount")}
            </Link>
          </div>
        </>
      ) : view.viewer === "match" ? (
        <Form method="post">
          <p>{t("accept.signedInAs", { email: view.viewerEmail })}</p>
          <input type="hidden" name="token" value={view.token} />
          <button type="submit" name="intent" value="accept" aria-busy={busy}>
            {t("accept.submit")}
          </button>
        </Form>
      ) : (
        <Form method="post">
          <div role="alert" className="form-failure" data-code="invitation_email_mismatch">
            <p>{t("accept.mismatch", { invited: invitation.email, email: view.viewerEmail })}</p>
          </div>
          <input type="hidden" name="token" value={view.token} />
          <button type="submit" name="intent" value="signOut" className="secondary">
            {t("accept.signOut")}
          </button>
        </Form>
      )}
    </>
  );
}

function InviteFailure({ code }: { code: InviteErrorCode }) {
  const { t } = useTranslation("invites");
  return (
    <div role="alert" className="form-failure" data-code={code}>
      <p>{t(`errors.${code}`, { defaultValue: t("errors.unexpected") })}</p>
    </div>
  );
}

function DashboardLink() {
  const { t } = useTranslation("invites");
  const to = useLocalizedPath();
  return (
    <p>
      <Link to={to("/dashboard")}>{t("accept.dashboard")}</Link>
    </p>
  );
}
