import { AppError } from "#app/utils/app-error.ts";

/** Billing's stable codes; the UI translates them under billing.json "errors". */
export const billingErrors = {
  // 402 Payment Required: the request is fine, the organisation needs a plan (existing data stays readable).
  trialEnded: () =>
    new AppError(
      402,
      "trial_ended",
      "The trial of this organization has ended: an owner must choose a plan to record new visits",
    ),
  visitLimitReached: () =>
    new AppError(402, "visit_limit_reached", "This organization has recorded every visit its plan includes this month"),
  planNotAvailable: () => new AppError(400, "plan_not_available", "This plan cannot be chosen here"),
  checkoutNotFound: () => new AppError(404, "checkout_not_found", "No checkout of this organization has this id"),
  checkoutIncomplete: () => new AppError(409, "checkout_incomplete", "The checkout has not been paid"),
  providerUnavailable: () => new AppError(502, "billing_provider_error", "The payment provider could not be reached"),
  webhookNotConfigured: () => new AppError(404, "webhook_not_configured", "Stripe webhooks are not configured"),
  invalidSignature: () => new AppError(400, "invalid_signature", "The Stripe-Signature header does not match the payload"),
  badJson: () => new AppError(400, "bad_json", "Could not parse request body as JSON"),
};
