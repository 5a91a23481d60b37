import { z } from "zod";
import type { StripeConfig } from "./config.server.ts";
import { billingErrors } from "./errors.server.ts";

// The two Stripe REST calls Murmur makes, with fetch (form-encoded requests, JSON answers;
// https://docs.stripe.com/api/checkout/sessions). No SDK: this is all of it.

const TIMEOUT_MS = 10_000;

/** A Checkout Session id as Stripe issues them; anything else never reaches the API. */
export const CHECKOUT_SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

const expandable = z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish();

/** The fields of a Checkout Session Murmur reads; Stripe sends many more. */
export const CheckoutSessionSchema = z
  .object({
    id: z.string(),
    url: z.string().nullish(),
    status: z.string().nullish(),
    payment_status: z.string().nullish(),
    client_reference_id: z.string().nullish(),
    metadata: z.record(z.string(), z.string()).nullish(),
    customer: expandable,
    subscription: expandable,
  })
  .loose();
export type CheckoutSession = z.infer<typeof CheckoutSessionSchema>;

export interface NewCheckout {
  price: string;
  orgId: string;
  userId: string;
  plan: string;
  successUrl: string;
  cancelUrl: string;
}

/** POST /v1/checkout/sessions: a subscription checkout that names the organisation twice (reference and metadata). */
export async function createCheckoutSession(config: StripeConfig, input: NewCheckout): Promise<CheckoutSession> {
  const form = new URLSearchParams({
    mode: "subscription",
    "line_items[0][price]": input.price,
    "line_items[0][quantity]": "1",
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    client_reference_id: input.orgId,
    "metadata[org_id]": input.orgId,
    "metadata[plan]": input.plan,
    "metadata[user_id]": input.userId,
    "subscription_data[metadata][org_id]": input.orgId,
    "subscription_data[metadata][plan]": input.plan,
  });
  const session = await stripeRequest(config, "POST", "/v1/checkout/sessions", form);
  if (!session?.url) throw billingErrors.providerUnavailable();
  return session;
}

/** GET /v1/checkout/sessions/:id, or null when Stripe has no such session. */
export function retrieveCheckoutSession(config: StripeConfig, id: string): Promise<CheckoutSession | null> {
  if (!CHECKOUT_SESSION_ID.test(id)) return Promise.resolve(null);
  return stripeRequest(config, "GET", `/v1/checkout/sessions/${encodeURIComponent(id)}`);
}

async function stripeRequest(
  config: StripeConfig,
  method: "GET" | "POST",
  path: string,
  form?: URLSearchParams,
): Promise<CheckoutSession | null> {
  let response: Response;
  try {
    response = await fetch(`${config.apiBase}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${config.secretKey}`,
        ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form?.toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw withCause(billingErrors.providerUnavailable(), error);
  }
  if (response.status === 404) return null;
  if (!response.ok) throw withCause(billingErrors.providerUnavailable(), `Stripe answered ${response.status}`);
  const parsed = CheckoutSessionSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw withCause(billingErrors.providerUnavailable(), "unexpected Stripe answer");
  return parsed.data;
}

function withCause<E extends Error>(error: E, cause: unknown): E {
  error.cause = cause;
  return error;
}
