import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { AuthCard } from "#app/components/auth-card.tsx";
import { AuthLinks } from "#app/components/auth-links.tsx";
import { FormFailure } from "#app/components/form-failure.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { getAuthStore } from "#app/services/auth-client/use-auth-store.ts";
import { getUser, requireAnonymous } from "#app/services/session/guards.server.ts";
import { sendMagicLink, signInWithPassword, toFailure, verifySecondFactor } from "#app/services/session/sign-in.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { safeRedirectTarget, sameOriginPath } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/login";
import { LoginSchema } from "./login-schemas.ts";

export function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const mfaStep = url.searchParams.get("step") === "mfa" && getUser(context)?.mfaRequired === true;
  if (!mfaStep) requireAnonymous(context, request);
  // A failed email link comes back here with its reason (see routes/auth/callback.tsx).
  const linkError = url.searchParams.get("error");
  return {
    step: mfaStep ? ("mfa" as const) : ("password" as const),
    // Only a target the action would follow goes back into the form.
    redirectTo: sameOriginPath(url.searchParams.get("redirectTo"), url.origin) ?? "",
    linkFailure: linkError ? toFailure({ code: linkError }) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrl(request);
  const form = Object.fromEntries(await readForm(request));
  const parsed = LoginSchema.safeParse(form);
  const email = typeof form.email === "string" ? form.email.slice(0, 320) : "";
  if (!parsed.success) return data({ failure: { code: "invalid_input" }, email, sent: false }, { status: 400 });
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  const locale = localeFromPath(url.pathname);
  const target = safeRedirectTarget(parsed.data.redirectTo, localizePath("/dashboard", locale), url.origin);

  if (parsed.data.intent === "password") {
    const result = await signInWithPassword(supabase, parsed.data.email, parsed.data.password);
    if (!result.ok) return data({ failure: result.failure, email, sent: false }, { status: 400 });
    if (result.mfaRequired) throw redirect(`${url.pathname}?${new URLSearchParams({ step: "mfa", redirectTo: target })}`);
    throw redirect(target);
  }
  if (parsed.data.intent === "magic") {
    const callback = `${url.origin}${localizePath("/auth/callback", locale)}?${new URLSearchParams({ next: target })}`;
    const failure = await sendMagicLink(supabase, parsed.data.email, callback);
    if (failure) return data({ failure, email, sent: false }, { status: 400 });
    return { failure: null, email, sent: true };
  }
  const failure = await verifySecondFactor(supabase, parsed.data.code);
  if (failure) return data({ failure, email: "", sent: false }, { status: 400 });
  throw redirect(target);
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  useRecordLoginFailure(actionData?.failure);
  const busy = useNavigation().state === "submitting";
  const { step, redirectTo } = loaderData;
  if (step === "mfa") {
    return (
      <AuthCard page="login">
        <h2>{t("mfa.heading")}</h2>
        <p>{t("mfa.body")}</p>
        <FormFailure failure={actionData?.failure} />
        <Form method="post">
          <input type="hidden" name="intent" value="totp" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <label>
            {t("fields.code")}
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required />
          </label>
          <button type="submit" aria-busy={busy}>
            {t("actions.verify")}
          </button>
        </Form>
      </AuthCard>
    );
  }
  return (
    <AuthCard page="login">
      <FormFailure failure={actionData?.failure ?? loaderData.linkFailure} />
      {actionData?.sent ? (
        <p role="status" className="form-success">
          {t("magic.sent", { email: actionData.email })}
        </p>
      ) : null}
      <Form method="post">
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label>
          {t("fields.email")}
          <input name="email" type="email" autoComplete="email" required defaultValue={actionData?.email} />
        </label>
        <label>
          {t("fields.password")}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" aria-busy={busy}>
          {t("actions.signIn")}
        </button>
      </Form>
      <details className="magic-link">
        <summary>{t("magic.heading")}</summary>
        <Form method="post">
          <input type="hidden" name="intent" value="magic" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <label>
            {t("fields.email")}
            <input name="email" type="email" autoComplete="email" required defaultValue={actionData?.email} />
          </label>
          <button type="submit" className="secondary">
            {t("actions.sendLink")}
          </button>
        </Form>
      </details>
      <AuthLinks show={["signup", "resetPassword"]} />
    </AuthCard>
  );
}

/** SPEC §4 Failed logins: each failed attempt counts in the browser store (more than 3 alerts). */
function useRecordLoginFailure(failure: { code: string } | null | undefined) {
  useEffect(() => {
    if (failure?.code === "invalid_credentials" || failure?.code === "mfa_verification_failed") {
      getAuthStore()?.recordLoginFailure({ message: failure.code, code: failure.code, status: 400 });
    }
  }, [failure]);
}
