import type { PaidPlan } from "./plans.ts";

/** The Stripe settings; present only when STRIPE_SECRET_KEY is set. */
export interface StripeConfig {
  secretKey: string;
  /** Without it the webhook route answers 404 (nothing can verify a delivery). */
  webhookSecret: string | null;
  /** https://api.stripe.com, or a local fake in tests. */
  apiBase: string;
  /** Stripe Price ids by plan; a plan without one cannot be bought through Checkout. */
  prices: Partial<Record<PaidPlan, string>>;
}

export interface BillingConfig {
  stripe: StripeConfig | null;
}

const KEYS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_BASE",
  "STRIPE_PRICE_SOLO",
  "STRIPE_PRICE_PRACTICE",
  "STRIPE_PRICE_CLINIC",
] as const;
type Key = (typeof KEYS)[number];

/**
 * Billing settings from the validated runtime env (EnvSchema declares the STRIPE_* variables),
 * falling back to process.env for callers that have no runtime env (scripts).
 */
export function billingConfig(runtimeEnv: object = {}): BillingConfig {
  const env = runtimeEnv as Partial<Record<Key, unknown>>;
  const read = (key: Key): string | null => {
    const value = env[key] ?? process.env[key];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
  };
  const secretKey = read("STRIPE_SECRET_KEY");
  if (!secretKey) return { stripe: null };
  const prices: Partial<Record<PaidPlan, string>> = {};
  const solo = read("STRIPE_PRICE_SOLO");
  const practice = read("STRIPE_PRICE_PRACTICE");
  const clinic = read("STRIPE_PRICE_CLINIC");
  if (solo) prices.solo = solo;
  if (practice) prices.practice = practice;
  if (clinic) prices.Clinic = clinic;
  return {
    stripe: {
      secretKey,
      webhookSecret: read("STRIPE_WEBHOOK_SECRET"),
      apiBase: (read("STRIPE_API_BASE") ?? "https://api.stripe.com").replace(/\/+$/, ""),
      prices,
    },
  };
}
