import { billingConfig } from "./config.server.ts";
import { manualProvider } from "./manual-provider.server.ts";
import type { BillingProvider } from "./provider.server.ts";
import { createStripeProvider } from "./stripe-provider.server.ts";

/** Stripe when STRIPE_SECRET_KEY is set, else the embedded manual provider (issue 4 "Plans and trial"). */
export function billingProvider(runtimeEnv: object = {}): BillingProvider {
  const { stripe } = billingConfig(runtimeEnv);
  return stripe ? createStripeProvider(stripe) : manualProvider;
}
