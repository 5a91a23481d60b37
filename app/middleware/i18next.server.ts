import { initReactI18next } from "react-i18next";
import { createI18nextMiddleware } from "remix-i18next";
import { DEFAULT_LOCALE, LOCALES, localeFromPath, NAMESPACES } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";

// The URL decides the language (SPEC §2); the cookie only steers the bare "/" (see routes/index.tsx).
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    findLocale: async ({ request }) => localeFromPath(new URL(request.url).pathname),
  },
  i18next: {
    resources,
    ns: [...NAMESPACES],
    defaultNS: "common",
    interpolation: { escapeValue: false },
  },
  plugins: [initReactI18next],
});
