import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "#app/components/auth-card.tsx";
import { Brand } from "#app/components/brand.tsx";
import { FormFailure } from "#app/components/form-failure.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { completeEmailLink } from "#app/services/session/account.server.ts";
import { isServedOverHttps } from "#app/services/session/auth-mode.server.ts";
import {
  clearLinkConfirmCookie,
  emailLinkAddress,
  followEmailLink,
  isEmailLinkType,
  issueLinkConfirmNonce,
  linkConfirmNonceMatches,
} from "#app/services/session/email-link-confirm.server.ts";
import { getUser } from "#app/services/session/guards.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { safeRedirectTarget } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/callback";

// Where confirmation, magic-link, invitation and recovery emails land after /auth/v1/verify.
// A PKCE `code` is bound to this browser (its verifier cookie) and is exchanged at once; a
// `token_hash` is not bound to anything, so it waits for the visitor's confirmation (issue 25).
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const locale = localeFromPath(url.pathname);
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  const next = safeRedirectTarget(url.searchParams.get("next"), localizePath("/dashboard", locale), url.origin);
  const code = url.searchParams.get("code");
  if (code) {
    const failure = await completeEmailLink(supabase, { code });
    if (failure) throw redirect(loginWithError(locale, failure.code));
    throw redirect(next);
  }
  const tokenHash = url.searchParams.get("token_hash");
  const type = url.searchParams.get("type");
  if (!tokenHash || tokenHash.length > 512 || !isEmailLinkType(type)) throw redirect(loginWithError(locale, "otp_expired"));
  const runtime = context.get(runtimeContext);
  const secure = isServedOverHttps(url.origin, runtime.env.SITE_URL);
  const { nonce, cookie } = issueLinkConfirmNonce(secure);
  return data(
    {
      current: getUser(context)?.email ?? null,
      target: await emailLinkAddress(runtime, tokenHash, type),
      tokenHash,
      type,
      next,
      nonce,
      failure: null as { code: string } | null,
    },
    { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrl(request);
  const locale = localeFromPath(url.pathname);
  const form = Object.fromEntries(await readForm(request));
  const tokenHash = typeof form.token_hash === "string" ? form.token_hash : "";
  const type = typeof form.type === "string" ? form.type : null;
  if (!tokenHash || tokenHash.length > 512 || !isEmailLinkType(type)) {
    return data({ failure: { code: "invalid_input" } }, { status: 400 });
  }
  // Only the confirm page this browser was shown can continue: another site's form has no nonce.
  if (!linkConfirmNonceMatches(request.headers.get("cookie"), form.nonce)) {
    return data({ failure: { code: "link_confirm_expired" } }, { status: 403 });
  }
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  const failure = await followEmailLink(supabase, { tokenHash, type, signedIn: getUser(context) !== null });
  if (failure) throw redirect(loginWithError(locale, failure.code));
  const secure = isServedOverHttps(url.origin, context.get(runtimeContext).env.SITE_URL);
  const next = safeRedirectTarget(
    typeof form.next === "string" ? form.next : null,
    localizePath("/dashboard", locale),
    url.origin,
  );
  throw redirect(next, { headers: { "Set-Cookie": clearLinkConfirmCookie(secure) } });
}

function loginWithError(locale: ReturnType<typeof localeFromPath>, code: string): string {
  return `${localizePath("/login", locale)}?error=${encodeURIComponent(code)}`;
}

export default function Callback({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state === "submitting";
  const { current, target, tokenHash, type, next, nonce } = loaderData;
  const switching = current !== null && current !== target;
  // The auth pages' frame, not their layout route: that one is served from the anonymous page
  // cache, and this page carries a one-time nonce and the link's token.
  return (
    <div className="auth-layout">
      <header className="auth-header">
        <Brand />
      </header>
      <main className="auth-main">
        <AuthCard page="linkConfirm">
          <FormFailure failure={actionData?.failure} />
          <p data-testid="link-target">{target ? t("linkConfirm.target", { target }) : t("linkConfirm.targetUnknown")}</p>
          {switching ? (
            <div role="alert" className="link-switch-warning" data-testid="link-switch-warning">
              <p>
                <strong>{t("linkConfirm.signedInAs", { current })}</strong>
              </p>
              <p>{target ? t("linkConfirm.switch", { current, target }) : t("linkConfirm.switchUnknown", { current })}</p>
            </div>
          ) : null}
          <p>{t("linkConfirm.notYou")}</p>
          <Form method="post">
            <input type="hidden" name="token_hash" value={tokenHash} />
            <input type="hidden" name="type" value={type} />
            <input type="hidden" name="next" value={next} />
            <input type="hidden" name="nonce" value={nonce} />
            <button type="submit" aria-busy={busy}>
              {target ? t("linkConfirm.continueAs", { target }) : t("linkConfirm.continue")}
            </button>
          </Form>
          {current ? (
            <p className="link-confirm-stay">
              <Link to={next}>{t("linkConfirm.stay", { current })}</Link>
            </p>
          ) : null}
        </AuthCard>
      </main>
    </div>
  );
}
