import type { SupabaseClient } from "@supabase/supabase-js";
import { type AuthFailure, toFailure } from "./sign-in.server.ts";

export interface FactorSummary {
  id: string;
  friendlyName: string;
  type: string;
  verified: boolean;
  createdAt: string;
}

export interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/** The user's second factors, verified first. */
export async function listFactors(supabase: SupabaseClient): Promise<FactorSummary[]> {
  const { data } = await supabase.auth.mfa.listFactors();
  return (data?.all ?? [])
    .map((f) => ({
      id: f.id,
      friendlyName: f.friendly_name ?? "",
      type: f.factor_type,
      verified: f.status === "verified",
      createdAt: f.created_at,
    }))
    .sort((a, b) => Number(b.verified) - Number(a.verified));
}

/** Starts a TOTP enrolment: the QR code and secret to put in an authenticator app. */
export async function startTotpEnrolment(supabase: SupabaseClient, friendlyName: string): Promise<Enrolment | AuthFailure> {
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName, issuer: "Murmur AI Scribe" });
  if (error || !data) return toFailure(error);
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

/** Confirms an enrolment with a first code; the session becomes aal2. */
export async function confirmTotpEnrolment(
  supabase: SupabaseClient,
  factorId: string,
  code: string,
): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  return error ? toFailure(error) : null;
}

export async function removeFactor(supabase: SupabaseClient, factorId: string): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  return error ? toFailure(error) : null;
}

/** Ends every other session of this user (other browsers and devices). */
export async function signOutOtherSessions(supabase: SupabaseClient): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.signOut({ scope: "others" });
  return error ? toFailure(error) : null;
}

/** Emails a code that must accompany a password change (reauthentication). */
export async function sendReauthenticationCode(supabase: SupabaseClient): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.reauthenticate();
  return error ? toFailure(error) : null;
}
