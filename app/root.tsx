import "#app/utils/zod-jitless.ts";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { ErrorPage } from "#app/components/error-page.tsx";
import { NavigationFallbackBanner } from "#app/components/navigation-fallback-banner.tsx";
import { AppToaster } from "#app/components/toasts.tsx";
import { VersionWatcher } from "#app/components/version-watcher.tsx";
import { ensureLocaleLoaded } from "#app/i18n/client-messages.ts";
import { DEFAULT_LOCALE, isLocale, localeFromPath } from "#app/i18n/config.ts";
import { getLocale, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import { sessionMiddleware } from "#app/middleware/session.server.ts";
import { BUILD_ID } from "#app/runtime/build-info.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { readTheme } from "#app/services/prefs/prefs.ts";
import mainCss from "#app/styles/main.css?url";
import { useNonce } from "#app/utils/nonce.ts";
import type { Route } from "./+types/root";

export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware, sessionMiddleware];

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: mainCss },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  const detected = getLocale(context);
  return data({
    locale: isLocale(detected) ? detected : DEFAULT_LOCALE,
    buildId: BUILD_ID,
    theme: readTheme(request),
    sentry: env.SENTRY_DSN ? { dsn: env.SENTRY_DSN, environment: env.SENTRY_ENVIRONMENT ?? null } : null,
  });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const location = useLocation();
  const locale = root?.locale ?? localeFromPath(location.pathname);
  const nonce = useNonce() || undefined;
  return (
    <html lang={locale} dir="ltr" data-theme={root?.theme === "system" ? undefined : root?.theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="murmur-build" content={BUILD_ID} />
        <link rel="preload" as="fetch" crossOrigin="anonymous" href={`/_i18n/${locale}/messages.json?v=${BUILD_ID}`} />
        <Meta />
        <Links />
      </head>
      <body>
        <NavigationFallbackBanner />
        {children}
        <AppToaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  const { locale, sentry, buildId } = loaderData;
  useEffect(() => {
    if (i18n.language !== locale) void ensureLocaleLoaded(i18n, locale).then(() => i18n.changeLanguage(locale));
  }, [locale, i18n]);
  useEffect(() => {
    if (sentry) void import("#app/utils/sentry.client.ts").then((m) => m.initClientSentry({ ...sentry, release: buildId }));
  }, [sentry, buildId]);
  useEffect(() => {
    // SPEC §4 browser sessions, started after hydration: the dynamic import keeps supabase-js out of the critical JS.
    // The organisation hooks come along lazily too: public pages never need the organisation store.
    Promise.all([import("#app/services/auth-client/start.client.ts"), import("#app/services/org-context/use-org-store.tsx")])
      .then(([auth, org]) => auth.startAuthClient(org.orgAuthHooks))
      .catch((e: unknown) => console.error(e));
  }, []);
  return (
    <>
      <VersionWatcher />
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const kind = (error.data as { kind?: string } | null)?.kind === "invalid" ? "invalid" : "unmatched";
    return <ErrorPage status={404} kind={kind} path={location.pathname} />;
  }
  if (isRouteErrorResponse(error) && error.status < 500) {
    // A stable code (e.g. 400 bad_form from readForm) picks a translated errors.http.* message.
    const code = (error.data as { code?: unknown } | null)?.code;
    return (
      <ErrorPage
        status={error.status}
        kind="client"
        path={location.pathname}
        code={typeof code === "string" ? code : undefined}
      />
    );
  }
  return <ErrorPage status={500} kind="server" path={location.pathname} />;
}
