import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { PlanCard } from "#app/components/org/plan-card.tsx";
import { TrialDates } from "#app/components/org/trial-dates.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { billingProvider } from "#app/services/billing/billing.server.ts";
import { checkoutReturnNotice, clearNoticeCookie, noticeCookie, readNotice } from "#app/services/billing/notice.server.ts";
import { PAID_PLANS } from "#app/services/billing/plans.ts";
import { trialStatus } from "#app/services/billing/trial.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/billing";
import { ChoosePlanSchema } from "./billing-schemas.ts";

/** Query parameters a checkout return carries; removed by a redirect once handled (SPEC §2). */
const RETURN_PARAMS = ["stripe", "session_id"] as const;

function serviceArgs(context: Route.LoaderArgs["context"], request: Request) {
  const { user, org } = requireOrg(context);
  return {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
    orgId: org.id,
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { org, role } = requireOrg(context);
  const provider = billingProvider(context.get(runtimeContext).env);
  const url = pageUrl(request);
  const secure = url.protocol === "https:";
  if (RETURN_PARAMS.some((name) => url.searchParams.has(name))) {
    const notice = await checkoutReturnNotice(provider, { ...serviceArgs(context, request), params: url.searchParams });
    for (const name of RETURN_PARAMS) url.searchParams.delete(name);
    throw redirect(url.pathname + url.search, notice ? { headers: { "Set-Cookie": noticeCookie(notice, secure) } } : undefined);
  }
  const notice = readNotice(request.headers.get("cookie"));
  return data(
    {
      orgName: org.name,
      plan: org.plan,
      timezone: org.timezone,
      trial: trialStatus(org, new Date()),
      isOwner: role === "owner",
      provider: provider.id,
      choosable: PAID_PLANS.filter((plan) => provider.canChoose(plan)),
      notice,
    },
    notice ? { headers: { "Set-Cookie": clearNoticeCookie(secure) } } : undefined,
  );
}

export async function action({ context, request }: Route.ActionArgs) {
  const parsed = ChoosePlanSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ error: "invalid_input" }, { status: 400 });
  const runtime = context.get(runtimeContext);
  const url = pageUrl(request);
  const returnUrl = new URL(url.pathname, runtime.env.SITE_URL ?? url.origin).href;
  let result: Awaited<ReturnType<ReturnType<typeof billingProvider>["startChange"]>>;
  try {
    result = await billingProvider(runtime.env).startChange({
      ...serviceArgs(context, request),
      plan: parsed.data.plan,
      returnUrl,
    });
  } catch (error) {
    if (isAppError(error)) return data({ error: error.code }, { status: error.status });
    throw error;
  }
  if (result.kind === "redirect") throw redirect(result.url, 303);
  throw redirect(url.pathname, {
    status: 303,
    headers: { "Set-Cookie": noticeCookie({ kind: "changed", plan: result.plan }, url.protocol === "https:") },
  });
}

export default function Billing({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(["billing", "marketing"]);
  const to = useLocalizedPath();
  const navigation = useNavigation();
  const { plan, trial, isOwner, notice, choosable } = loaderData;
  const planName = (id: string) => t(`marketing:pricing.plans.${id}.name`);
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("plan") : null;
  return (
    <div className="ui-stack" data-page="billing">
      <PageMeta title={t("billing:page.title")} />
      {notice ? (
        <p role="status" data-notice={notice.kind}>
          {notice.kind === "changed"
            ? t("billing:notice.changed", { plan: planName(notice.plan) })
            : notice.kind === "cancelled"
              ? t("billing:notice.cancelled")
              : t(`billing:errors.${notice.code}`, { defaultValue: t("billing:errors.generic") })}
        </p>
      ) : null}
      {actionData?.error ? (
        <p role="alert" className="form-failure" data-code={actionData.error}>
          {t(`billing:errors.${actionData.error}`, { defaultValue: t("billing:errors.generic") })}
        </p>
      ) : null}
      <Section id="billing" title={t("billing:page.title")} description={t("billing:page.intro")}>
        <div data-testid="current-plan" data-plan={plan} className="billing-current">
          <p>
            {t("billing:page.currentPlan")} <strong>{planName(plan)}</strong>
          </p>
          <TrialDates trial={trial} timezone={loaderData.timezone} />
        </div>
        {isOwner ? (
          <p className="ui-muted">
            {t(loaderData.provider === "stripe" ? "billing:page.providerStripe" : "billing:page.providerManual")}
          </p>
        ) : (
          <p data-testid="owner-only" className="ui-muted">
            {t("billing:page.ownerOnly", { org: loaderData.orgName })}
          </p>
        )}
      </Section>
      <div className="plan-grid">
        {PAID_PLANS.map((id) => (
          <PlanCard key={id} plan={id} heading="h3">
            {id === plan ? (
              <button type="button" className="ui-button" data-variant="secondary" disabled aria-disabled="true">
                {t("billing:page.current")}
              </button>
            ) : !isOwner ? null : choosable.includes(id) ? (
              <Form method="post">
                <input type="hidden" name="intent" value="choose-plan" />
                <input type="hidden" name="plan" value={id} />
                <button
                  type="submit"
                  className="ui-button"
                  aria-busy={submitting === id || undefined}
                  disabled={Boolean(submitting)}
                >
                  {t("billing:page.choose", { plan: planName(id) })}
                </button>
              </Form>
            ) : (
              <Link to={to("/contact")} className="ui-button" data-variant="secondary">
                {t("billing:page.contactUs")}
              </Link>
            )}
          </PlanCard>
        ))}
      </div>
    </div>
  );
}
