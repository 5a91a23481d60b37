import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { AuthCard } from "#app/components/auth-card.tsx";
import { AuthLinks } from "#app/components/auth-links.tsx";
import { FormFailure } from "#app/components/form-failure.tsx";
import { NewPasswordField } from "#app/components/password-rules.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { signUp } from "#app/services/session/account.server.ts";
import { requireAnonymous } from "#app/services/session/guards.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { safeRedirectTarget, sameOriginPath } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/signup";
import { SignUpSchema } from "./account-schemas.ts";

export function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  // SPEC §2: showCompletion=true shows the completion screen (and skips organisation bootstrap).
  const showCompletion = url.searchParams.get("showCompletion") === "true";
  if (!showCompletion) requireAnonymous(context, request);
  return {
    showCompletion,
    email: url.searchParams.get("email")?.slice(0, 320) ?? "",
    redirectTo: sameOriginPath(url.searchParams.get("redirectTo"), url.origin) ?? "",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrl(request);
  const form = Object.fromEntries(await readForm(request));
  const values = { fullName: String(form.fullName ?? "").slice(0, 200), email: String(form.email ?? "").slice(0, 320) };
  const parsed = SignUpSchema.safeParse(form);
  if (!parsed.success) return data({ failure: { code: "invalid_input" }, values }, { status: 400 });
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  const locale = localeFromPath(url.pathname);
  const { redirectTo, ...account } = parsed.data;
  // Where the confirmation link (or an auto-confirmed sign-up) lands: e.g. back on /accept-invite?token=….
  const target = safeRedirectTarget(redirectTo, localizePath("/dashboard", locale), url.origin);
  const result = await signUp(supabase, {
    ...account,
    locale,
    callbackUrl: `${url.origin}${localizePath("/auth/callback", locale)}?next=${encodeURIComponent(target)}`,
  });
  if (!result.ok) return data({ failure: result.failure, values }, { status: 400 });
  if (result.signedIn) throw redirect(target);
  throw redirect(`${url.pathname}?${new URLSearchParams({ showCompletion: "true", email: parsed.data.email })}`);
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state === "submitting";
  if (loaderData.showCompletion) {
    return (
      <AuthCard page="signup">
        <h2>{t("signup.completionHeading")}</h2>
        <p role="status">{t("signup.completionBody", { email: loaderData.email })}</p>
        <AuthLinks show={["login"]} />
      </AuthCard>
    );
  }
  return (
    <AuthCard page="signup">
      <FormFailure failure={actionData?.failure} />
      <Form method="post">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <label>
          {t("fields.fullName")}
          <input name="fullName" autoComplete="name" required maxLength={200} defaultValue={actionData?.values.fullName} />
        </label>
        <label>
          {t("fields.email")}
          <input
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.values.email ?? (loaderData.email || undefined)}
          />
        </label>
        <NewPasswordField label={t("fields.password")} />
        <button type="submit" aria-busy={busy}>
          {t("actions.createAccount")}
        </button>
      </Form>
      <AuthLinks show={["login", "pricing"]} />
    </AuthCard>
  );
}
