import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { ensureLocaleLoaded } from "#app/i18n/client-messages.ts";
import { DEFAULT_LOCALE, isLocale, NAMESPACES } from "#app/i18n/config.ts";
import { installGlobalErrorHandlers } from "#app/utils/global-errors.client.ts";

async function main() {
  installGlobalErrorHandlers();
  // Hydrate in the language the server rendered; <html lang> is the source of truth.
  const htmlLang = document.documentElement.lang;
  const locale = isLocale(htmlLang) ? htmlLang : DEFAULT_LOCALE;
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    ns: [...NAMESPACES],
    defaultNS: "common",
    resources: {},
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  await ensureLocaleLoaded(i18next, locale);
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error: unknown) => console.error(error));
