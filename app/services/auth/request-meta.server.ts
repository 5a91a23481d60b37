import type { Locale } from "#app/i18n/config.ts";
import { emailLocale } from "./mailer.server.ts";
import type { UserRow } from "./users.server.ts";

/** What the core auth services need to know about the caller, without seeing the Request itself. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  acceptLanguage: string | null;
  /** The `redirect_to` query parameter supabase-js sends with email flows, not yet checked. */
  redirectTo: string | null;
}

/** The language of an email: the account's saved locale, else the one just submitted, else the browser's. */
export function localeFor(meta: RequestMeta, user: UserRow | null, data?: Record<string, unknown> | null): Locale {
  return emailLocale(user?.raw_user_meta_data.locale, data?.locale, meta.acceptLanguage);
}
