import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { BrowserLocaleFields, regionOfCountry } from "#app/components/org/browser-locale-fields.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { Page, Section } from "#app/components/ui/page.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { orgCookieHeader } from "#app/services/org-context/cookie.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { createOrg, updateOrg } from "#app/services/orgs/orgs.server.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/org-new";
import { NewOrgSchema } from "./org-new-schema.ts";

// Issue 29: the region a browser's language suggests before JavaScript refines it ("fr-FR" → eu).
export function loader({ request }: Route.LoaderArgs) {
  const first = (request.headers.get("accept-language") ?? "").split(",")[0]?.split(";")[0]?.trim() ?? "";
  let country: string | undefined;
  try {
    country = first ? new Intl.Locale(first).maximize().region : undefined;
  } catch {
    country = undefined;
  }
  return { suggestedRegion: regionOfCountry(country) };
}

// "Create organisation" from the switcher: a practice on a 14-day trial, owned by the creator, who
// then works in it (the cookie moves with the redirect).
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireOrg(context);
  const parsed = NewOrgSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0]?.message ?? "name_required" }, { status: 400 });
  }
  const args = {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
  };
  const { id } = await createOrg({ ...args, name: parsed.data.name });
  const { timezone, region } = parsed.data;
  // The creator owns it: the browser's zone and region, as Settings → Organisation would set them.
  if (timezone || region) await updateOrg({ ...args, orgId: id, patch: { timezone, region } });
  const url = pageUrl(request);
  throw redirect(localizePath("/settings/organization", localeFromPath(url.pathname)), {
    headers: { "Set-Cookie": orgCookieHeader(id, secureCookies(request, context)) },
  });
}

export default function NewOrganization({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("org");
  const to = useLocalizedPath();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="app-page" data-page="org-new">
      <PageMeta title={t("create.title")} />
      <Page title={t("create.title")} description={t("create.intro")}>
        <Section id="org-new">
          <Form method="post" className="ui-form">
            <label>
              {t("create.name")}
              <input
                name="name"
                required
                maxLength={200}
                autoComplete="organization"
                aria-invalid={actionData?.error ? true : undefined}
                aria-describedby={actionData?.error ? "org-name-error" : undefined}
              />
            </label>
            <BrowserLocaleFields suggestedRegion={loaderData.suggestedRegion} />
            {actionData?.error ? (
              <p role="alert" id="org-name-error" className="form-failure" data-code={actionData.error}>
                {t(`create.errors.${actionData.error}`, { defaultValue: t("create.errors.failed") })}
              </p>
            ) : null}
            <div className="form-actions">
              <button type="submit" className="ui-button" aria-busy={busy || undefined} disabled={busy}>
                {t("create.submit")}
              </button>
              <Link to={to("/dashboard")} className="ui-button" data-variant="ghost">
                {t("create.cancel")}
              </Link>
            </div>
          </Form>
        </Section>
      </Page>
    </div>
  );
}
