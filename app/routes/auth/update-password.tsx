import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { AuthCard } from "#app/components/auth-card.tsx";
import { AuthLinks } from "#app/components/auth-links.tsx";
import { FormFailure } from "#app/components/form-failure.tsx";
import { NewPasswordField } from "#app/components/password-rules.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { changePassword, completeEmailLink } from "#app/services/session/account.server.ts";
import { getUser } from "#app/services/session/guards.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/update-password";
import { UpdatePasswordSchema } from "./account-schemas.ts";

// SPEC §2: arrives with ?token=, or ?code=…&type=recovery, or after /auth/callback with a session.
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const code = url.searchParams.get("code");
  const token = url.searchParams.get("token");
  if (token) {
    // A recovery token is bound to no browser: it goes through the confirm page (issue 25).
    const locale = localeFromPath(url.pathname);
    const query = new URLSearchParams({ token_hash: token, type: "recovery", next: url.pathname });
    throw redirect(`${localizePath("/auth/callback", locale)}?${query}`);
  }
  if (code) {
    const supabase = context.get(supabaseContext)?.supabase;
    if (!supabase) throw new Error("session middleware missing");
    const failure = await completeEmailLink(supabase, { code });
    if (failure) return { hasSession: false, linkFailure: failure };
    throw redirect(url.pathname);
  }
  return { hasSession: getUser(context) !== null, linkFailure: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrl(request);
  const parsed = UpdatePasswordSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    const mismatch = parsed.error.issues.some((i) => i.message === "mismatch");
    return data({ failure: { code: mismatch ? "password_mismatch" : "invalid_input" } }, { status: 400 });
  }
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase || !getUser(context)) return data({ failure: { code: "otp_expired" } }, { status: 401 });
  const failure = await changePassword(supabase, parsed.data.password);
  if (failure) return data({ failure }, { status: 400 });
  throw redirect(localizePath("/dashboard", localeFromPath(url.pathname)));
}

export default function UpdatePassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state === "submitting";
  if (!loaderData.hasSession) {
    return (
      <AuthCard page="updatePassword">
        <FormFailure failure={loaderData.linkFailure ?? { code: "otp_expired" }} />
        <AuthLinks show={["resetPassword", "login"]} />
      </AuthCard>
    );
  }
  return (
    <AuthCard page="updatePassword">
      <FormFailure failure={actionData?.failure} />
      <Form method="post">
        <NewPasswordField label={t("fields.newPassword")} />
        <label>
          {t("fields.confirmPassword")}
          <input name="confirm" type="password" autoComplete="new-password" required minLength={8} />
        </label>
        <button type="submit" aria-busy={busy}>
          {t("actions.savePassword")}
        </button>
      </Form>
    </AuthCard>
  );
}
