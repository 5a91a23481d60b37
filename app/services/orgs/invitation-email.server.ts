import { createInstance, type TFunction } from "i18next";
import { sql } from "kysely";
import { DEFAULT_LOCALE, type Locale, localizePath } from "#app/i18n/config.ts";
import type { AuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import type { RenderedEmail } from "#app/services/auth/mailer.server.ts";
import { formatInZone } from "#app/utils/zoned-time.ts";
import enEmails from "../../../locales/en/emails.json" with { type: "json" };
import esEmails from "../../../locales/es/emails.json" with { type: "json" };
import frEmails from "../../../locales/fr/emails.json" with { type: "json" };
import type { InvitationPreview } from "./invitation-preview.server.ts";

/** The outbox `template` of invitation emails (the auth emails use their GoTrue names). */
export const INVITATION_EMAIL_TEMPLATE = "org_invitation";

const translators = new Map<Locale, Promise<TFunction>>();

function translator(locale: Locale): Promise<TFunction> {
  let t = translators.get(locale);
  if (!t) {
    const i18n = createInstance();
    t = i18n
      .init({
        lng: locale,
        fallbackLng: DEFAULT_LOCALE,
        resources: { en: { emails: enEmails }, fr: { emails: frEmails }, es: { emails: esEmails } },
        defaultNS: "emails",
        interpolation: { escapeValue: false },
      })
      .then(() => i18n.t);
    translators.set(locale, t);
  }
  return t;
}

/** The page that accepts an invitation, in the email's language: `<SITE_URL>/<lang>/accept-invite?token=…`. */
export function invitationLink(siteUrl: string, locale: Locale, token: string): string {
  return `${siteUrl.replace(/\/+$/, "")}${localizePath("/accept-invite", locale)}?${new URLSearchParams({ token })}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A name as one line of an email header: control and format characters (newlines, tabs, bidi
 * overrides) and line/paragraph separators become spaces, runs of spaces one, at most 100
 * characters. The inviter chooses their own name; in the subject it must not start a header line.
 */
export function headerSafe(value: string): string {
  const flat = value
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return [...flat].slice(0, 100).join("");
}

/** "Ana Ruiz (ana@example.org)", or the email alone when the inviter has no name. */
function inviterLabel(preview: Pick<InvitationPreview, "inviterName" | "inviterEmail">): string {
  const name = preview.inviterName ? headerSafe(preview.inviterName) : "";
  const email = preview.inviterEmail ? headerSafe(preview.inviterEmail) : "";
  if (name && email) return `${name} (${email})`;
  return name || email || "Murmur";
}

/** The translated invitation: organisation, inviter, role, expiry date and the accept link. */
export async function renderInvitationEmail(
  locale: Locale,
  preview: Pick<InvitationPreview, "orgName" | "orgTimezone" | "inviterName" | "inviterEmail" | "email" | "role" | "expiresAt">,
  link: string,
): Promise<RenderedEmail> {
  const t = await translator(locale);
  // The expiry's day on the inviting organisation's clock: the day its Settings → Invitations and
  // the accept page show, whatever the zone of the server or of the invitee.
  const date = formatInZone(preview.expiresAt, locale, preview.orgTimezone, { dateStyle: "long" });
  const vars = { org: headerSafe(preview.orgName), inviter: inviterLabel(preview), role: t(`invitation.roles.${preview.role}`) };
  const subject = t("invitation.subject", vars);
  const heading = t("invitation.heading", vars);
  const body = t("invitation.body", vars);
  const expires = t("invitation.expires", { date });
  const action = t("invitation.action");
  const account = t("invitation.account", { email: preview.email });
  const ignore = t("invitation.ignore");
  const footer = t("footer");
  const text = [heading, "", body, expires, "", `${action}: ${link}`, "", account, ignore, "", footer].join("\n");
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;max-width:560px;margin:auto">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
<p>${escapeHtml(body)}</p>
<p>${escapeHtml(expires)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#3b5bdb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p>${escapeHtml(account)}</p>
<p>${escapeHtml(ignore)}</p>
<p style="color:#666;font-size:12px">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject, text, html };
}

/**
 * Queues the email in the auth outbox, the one queue every email of Murmur goes through: SMTP
 * delivers it when SMTP_URL is set (delivery.server.ts), the dev mailbox shows it otherwise.
 * Written with the owner connection, like the auth emails: murmur_app has no access to `auth`.
 */
export async function queueInvitationEmail(
  auth: AuthRuntime,
  message: { to: string; locale: Locale; rendered: RenderedEmail },
): Promise<void> {
  const { to, locale, rendered } = message;
  await sql`insert into auth.outbox (channel, recipient, template, locale, subject, text_body, html_body)
            values ('email', ${to}, ${INVITATION_EMAIL_TEMPLATE}, ${locale}, ${rendered.subject}, ${rendered.text}, ${rendered.html})`.execute(
    auth.db.kysely,
  );
  auth.onOutbox?.();
}
