import type { SupabaseClient } from "@supabase/supabase-js";

/** A failure a person can act on; `code` picks the translated message (auth:errors.<code>). */
export interface AuthFailure {
  code: string;
  reasons?: string[];
}

// GoTrue codes the forms explain in words; anything else is shown as a generic failure.
const KNOWN = new Set([
  "invalid_credentials",
  "email_not_confirmed",
  "over_request_rate_limit",
  "over_email_send_rate_limit",
  "weak_password",
  "user_already_exists",
  "email_address_invalid",
  "mfa_verification_failed",
  "mfa_challenge_expired",
  "otp_expired",
  "same_password",
  "reauthentication_needed",
  "reauthentication_not_valid",
  "signup_disabled",
  "user_banned",
]);

export function toFailure(error: { code?: string; status?: number; reasons?: string[] } | null | undefined): AuthFailure {
  const code =
    error?.code && KNOWN.has(error.code) ? error.code : error?.status === 429 ? "over_request_rate_limit" : "unexpected";
  return error?.reasons?.length ? { code, reasons: error.reasons } : { code };
}

/** Password sign-in; tells whether the account also needs its second factor (SPEC §4 MFA). */
export async function signInWithPassword(
  supabase: SupabaseClient,
  email: string,
  password: string,
): Promise<{ ok: true; mfaRequired: boolean } | { ok: false; failure: AuthFailure }> {
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) return { ok: false, failure: toFailure(error) };
  const { data: aal } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  return { ok: true, mfaRequired: aal?.nextLevel === "aal2" && aal.currentLevel !== "aal2" };
}

/** Completes sign-in with a TOTP code from the user's first verified authenticator. */
export async function verifySecondFactor(supabase: SupabaseClient, code: string): Promise<AuthFailure | null> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) return toFailure(error);
  const factor = data.totp.find((f) => f.status === "verified");
  if (!factor) return { code: "unexpected" };
  const result = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
  return result.error ? toFailure(result.error) : null;
}

/** Emails a one-time sign-in link; the link comes back through /auth/callback. */
export async function sendMagicLink(supabase: SupabaseClient, email: string, callbackUrl: string): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: { emailRedirectTo: callbackUrl, shouldCreateUser: false },
  });
  // An unknown address gets the same answer as a known one (no account enumeration).
  if (error && error.code !== "otp_disabled") return toFailure(error);
  return null;
}
