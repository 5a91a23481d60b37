import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { AuthCard } from "#app/components/auth-card.tsx";
import { AuthLinks } from "#app/components/auth-links.tsx";
import { FormFailure } from "#app/components/form-failure.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { requestPasswordReset } from "#app/services/session/account.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/reset-password";
import { ResetPasswordSchema } from "./account-schemas.ts";

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrl(request);
  const form = Object.fromEntries(await readForm(request));
  const email = String(form.email ?? "").slice(0, 320);
  const parsed = ResetPasswordSchema.safeParse(form);
  if (!parsed.success) return data({ failure: { code: "invalid_input" }, email, sent: false }, { status: 400 });
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  const locale = localeFromPath(url.pathname);
  const callback = `${url.origin}${localizePath("/auth/callback", locale)}?next=${encodeURIComponent(localizePath("/update-password", locale))}`;
  const failure = await requestPasswordReset(supabase, parsed.data.email, callback);
  if (failure) return data({ failure, email, sent: false }, { status: 400 });
  return { failure: null, email, sent: true };
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state === "submitting";
  return (
    <AuthCard page="resetPassword">
      <FormFailure failure={actionData?.failure} />
      {actionData?.sent ? (
        <p role="status" className="form-success">
          {t("resetPassword.sent", { email: actionData.email })}
        </p>
      ) : (
        <>
          <p>{t("resetPassword.body")}</p>
          <Form method="post">
            <label>
              {t("fields.email")}
              <input name="email" type="email" autoComplete="email" required defaultValue={actionData?.email} />
            </label>
            <button type="submit" aria-busy={busy}>
              {t("actions.sendResetLink")}
            </button>
          </Form>
        </>
      )}
      <AuthLinks show={["login", "support"]} />
    </AuthCard>
  );
}
