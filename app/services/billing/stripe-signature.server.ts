import { createHmac, timingSafeEqual } from "node:crypto";

/** Stripe's default: a delivery signed more than 5 minutes away from now is refused (replays). */
export const STRIPE_SIGNATURE_TOLERANCE_S = 300;

/**
 * Checks a `Stripe-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">`,
 * possibly several v1 during a secret roll) against the raw body, in constant time
 * (https://docs.stripe.com/webhooks#verify-manually).
 */
export function verifyStripeSignature(payload: string, header: string | null, secret: string, now: Date): boolean {
  if (!header) return false;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2).map((s) => s.trim());
    if (key === "t" && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > STRIPE_SIGNATURE_TOLERANCE_S) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex"));
  return signatures.some((signature) => timingSafeEqual(expected, Buffer.from(signature)));
}
