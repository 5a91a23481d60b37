import { Outlet, redirect } from "react-router";
import { Brand } from "#app/components/brand.tsx";
import { LanguageSwitcher } from "#app/components/language-switcher.tsx";
import { anonymousPageHeaders } from "#app/utils/page-cache.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import type { Route } from "./+types/auth";

// SPEC §2: on the auth pages a `stripe` query parameter (left by a checkout return) is removed.
export function loader({ request }: Route.LoaderArgs) {
  const url = pageUrl(request);
  if (url.searchParams.has("stripe")) {
    url.searchParams.delete("stripe");
    throw redirect(url.pathname + url.search);
  }
  return null;
}

// The same page for every visitor without cookies: served from the anonymous page cache.
export const headers = anonymousPageHeaders;

/** Public pages with no app layout: a brand mark, the form, and the language choice. */
export default function AuthLayout() {
  return (
    <div className="auth-layout">
      <header className="auth-header">
        <Brand />
        <LanguageSwitcher />
      </header>
      <main className="auth-main">
        <Outlet />
      </main>
    </div>
  );
}
