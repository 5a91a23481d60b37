import type { SupabaseClient } from "@supabase/supabase-js";
import type { Locale } from "#app/i18n/config.ts";
import { type AuthFailure, toFailure } from "./sign-in.server.ts";

/** Creates the account; `signedIn` when email confirmation is off (the session is then set). */
export async function signUp(
  supabase: SupabaseClient,
  input: { email: string; password: string; fullName: string; locale: Locale; callbackUrl: string },
): Promise<{ ok: true; signedIn: boolean } | { ok: false; failure: AuthFailure }> {
  const { data, error } = await supabase.auth.signUp({
    email: input.email,
    password: input.password,
    options: { emailRedirectTo: input.callbackUrl, data: { full_name: input.fullName, locale: input.locale } },
  });
  if (error) return { ok: false, failure: toFailure(error) };
  return { ok: true, signedIn: data.session !== null };
}

/** Sends the recovery email. Answers the same whether or not the address has an account. */
export async function requestPasswordReset(
  supabase: SupabaseClient,
  email: string,
  callbackUrl: string,
): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: callbackUrl });
  return error ? toFailure(error) : null;
}

/**
 * Turns the value an email link brought back into a session: a PKCE `code` (exchanged with the
 * verifier kept in this browser's cookie) or a `token_hash` with its type.
 */
export async function completeEmailLink(
  supabase: SupabaseClient,
  link: { code?: string | null; tokenHash?: string | null; type?: string | null },
): Promise<AuthFailure | null> {
  if (link.code) {
    const { error } = await supabase.auth.exchangeCodeForSession(link.code);
    return error ? toFailure(error) : null;
  }
  if (link.tokenHash && link.type) {
    const type = link.type as "signup" | "recovery" | "invite" | "magiclink" | "email_change" | "email";
    const { error } = await supabase.auth.verifyOtp({ token_hash: link.tokenHash, type });
    return error ? toFailure(error) : null;
  }
  return { code: "otp_expired" };
}

/** Sets a new password for the signed-in user (after a recovery link, or with a reauthentication code). */
export async function changePassword(supabase: SupabaseClient, password: string, nonce?: string): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.updateUser(nonce ? { password, nonce } : { password });
  return error ? toFailure(error) : null;
}
