import { createInstance, type TFunction } from "i18next";
import { sql } from "kysely";
import { DEFAULT_LOCALE, isLocale, type Locale } from "#app/i18n/config.ts";
import enEmails from "../../../locales/en/emails.json" with { type: "json" };
import esEmails from "../../../locales/es/emails.json" with { type: "json" };
import frEmails from "../../../locales/fr/emails.json" with { type: "json" };
import type { AuthRuntime } from "./auth-runtime.server.ts";

export type AuthEmailTemplate = "confirmation" | "magic_link" | "recovery" | "invite" | "email_change" | "reauthentication";

const translators = new Map<Locale, TFunction>();

async function translator(locale: Locale): Promise<TFunction> {
  let t = translators.get(locale);
  if (!t) {
    const i18n = createInstance();
    await i18n.init({
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      resources: { en: { emails: enEmails }, fr: { emails: frEmails }, es: { emails: esEmails } },
      defaultNS: "emails",
      interpolation: { escapeValue: false },
    });
    t = i18n.t;
    translators.set(locale, t);
  }
  return t;
}

/** The language of an email: the user's saved preference, else the request's, else English. */
export function emailLocale(...candidates: unknown[]): Locale {
  for (const c of candidates) {
    if (typeof c !== "string") continue;
    const base = c
      .trim()
      .toLowerCase()
      .split(/[-_,;]/)[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** A translated email with a link button and, where the flow accepts one, the one-time code. */
export async function renderAuthEmail(
  template: AuthEmailTemplate,
  locale: Locale,
  vars: { link?: string; code?: string },
): Promise<RenderedEmail> {
  const t = await translator(locale);
  const code = vars.code ?? "";
  const subject = t(`${template}.subject`);
  const heading = t(`${template}.heading`);
  const body = t(`${template}.body`, { code });
  const action = template === "reauthentication" ? "" : t(`${template}.action`);
  const codeLine = vars.code && template !== "reauthentication" ? t("codeLine", { code }) : "";
  const footer = t("footer");
  const text = [heading, "", body, vars.link ? `\n${action}: ${vars.link}` : "", codeLine ? `\n${codeLine}` : "", "", footer]
    .filter((l) => l !== undefined)
    .join("\n");
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;max-width:560px;margin:auto">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>
<p>${escapeHtml(body)}</p>
${vars.link ? `<p><a href="${escapeHtml(vars.link)}" style="display:inline-block;padding:10px 16px;background:#3b5bdb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>` : ""}
${codeLine ? `<p>${escapeHtml(codeLine)}</p>` : ""}
<p style="color:#666;font-size:12px">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject, text, html };
}

/** Queues an auth email in the outbox; delivery (SMTP) or the dev mailbox reads it from there. */
export async function sendAuthEmail(
  auth: AuthRuntime,
  message: { template: AuthEmailTemplate; to: string; locale: Locale; link?: string; code?: string },
): Promise<void> {
  const rendered = await renderAuthEmail(message.template, message.locale, message);
  await sql`insert into auth.outbox (channel, recipient, template, locale, subject, text_body, html_body)
            values ('email', ${message.to}, ${message.template}, ${message.locale}, ${rendered.subject}, ${rendered.text}, ${rendered.html})`.execute(
    auth.db.kysely,
  );
  auth.onOutbox?.();
}

/** Queues an SMS (MFA or sign-in code). Murmur has no SMS provider yet: messages stay in the outbox. */
export async function sendAuthSms(
  auth: AuthRuntime,
  message: { kind: "mfa" | "otp"; to: string; locale: Locale; code: string },
): Promise<void> {
  const t = await translator(message.locale);
  await sql`insert into auth.outbox (channel, recipient, template, locale, text_body, status)
            values ('sms', ${message.to}, ${`sms_${message.kind}`}, ${message.locale}, ${t(`sms.${message.kind}`, { code: message.code })}, 'kept')`.execute(
    auth.db.kysely,
  );
}
