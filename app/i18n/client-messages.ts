import type { i18n as I18n } from "i18next";
import { BUILD_ID } from "#app/runtime/build-info.ts";
import type { Locale } from "./config.ts";

export type Messages = Record<string, Record<string, unknown>>;

/** The URL the server publishes a locale's messages at; the build id busts caches on deploy. */
export function messagesUrl(locale: Locale): string {
  return `/_i18n/${locale}/messages.json?v=${BUILD_ID}`;
}

export async function fetchMessages(locale: Locale): Promise<Messages> {
  const res = await fetch(messagesUrl(locale), { credentials: "same-origin" });
  if (!res.ok) throw new Error(`messages for ${locale}: HTTP ${res.status}`);
  return (await res.json()) as Messages;
}

/** Adds a locale's namespaces to a browser i18next instance, once. */
export async function ensureLocaleLoaded(i18n: I18n, locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, "common")) return;
  const messages = await fetchMessages(locale);
  for (const [ns, bundle] of Object.entries(messages)) i18n.addResourceBundle(locale, ns, bundle, true, true);
}
