import { runtimeContext } from "#app/runtime/context.ts";
import { billingConfig } from "#app/services/billing/config.server.ts";
import { billingErrors } from "#app/services/billing/errors.server.ts";
import { createStripeProvider } from "#app/services/billing/stripe-provider.server.ts";
import { appErrorResponse, isAppError } from "#app/utils/app-error.ts";
import type { Route } from "./+types/api-billing-stripe-webhook";
import { methodNotAllowed } from "./method-not-allowed.ts";

// POST /api/billing/stripe/webhook (issue 4 "Plans and trial"): Stripe's deliveries, verified with
// STRIPE_WEBHOOK_SECRET over the raw body; each event id is processed once.

export const loader = () => methodNotAllowed("POST");

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const { stripe } = billingConfig(context.get(runtimeContext).env);
  try {
    if (!stripe) throw billingErrors.webhookNotConfigured();
    const handle = createStripeProvider(stripe).handleWebhook;
    if (!handle) throw billingErrors.webhookNotConfigured();
    const outcome = await handle({
      db: context.get(runtimeContext).db,
      rawBody: await request.text(),
      headers: request.headers,
      now: new Date(),
    });
    return Response.json(outcome, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (isAppError(error)) return appErrorResponse(error);
    throw error;
  }
}
