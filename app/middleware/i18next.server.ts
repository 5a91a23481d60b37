import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { DEFAULT_LOCALE, type Locale, localeFromPath, NAMESPACES } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";

// The URL decides the language (SPEC §2); the cookie only steers the bare "/" (see routes/index.tsx).
//
// remix-i18next's middleware built and initialised a new i18next instance, with every namespace
// of the three languages, on every request — API calls included: about 4 % of the server's CPU
// under load (issue 17 profile). The server only reads from its instance (translations and the
// language; nothing calls changeLanguage or adds resources server-side), so one instance per
// language, initialised once, serves every request in that language. Same shape as
// remix-i18next's [middleware, getLocale, getInstance].

const localeContext = createContext<Locale>(DEFAULT_LOCALE);
const i18nextContext = createContext<i18n | null>(null);
const instances = new Map<Locale, Promise<i18n>>();

function instanceFor(lng: Locale): Promise<i18n> {
  let ready = instances.get(lng);
  if (!ready) {
    const instance = createInstance({
      resources,
      ns: [...NAMESPACES],
      defaultNS: "common",
      interpolation: { escapeValue: false },
    }).use(initReactI18next);
    ready = instance.init({ lng }).then(() => instance);
    // A failed start is retried by the next request rather than remembered.
    ready.catch(() => instances.delete(lng));
    instances.set(lng, ready);
  }
  return ready;
}

export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const lng = localeFromPath(new URL(request.url).pathname);
  context.set(localeContext, lng);
  context.set(i18nextContext, await instanceFor(lng));
  return next();
};

export const getLocale = (context: Readonly<RouterContextProvider>): Locale => context.get(localeContext);

export function getInstance(context: Readonly<RouterContextProvider>): i18n {
  const instance = context.get(i18nextContext);
  if (!instance) throw new Error("i18nextMiddleware has not run for this request");
  return instance;
}
