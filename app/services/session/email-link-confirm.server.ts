import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { type OneTimeTokenType, peekLinkTokenAddress } from "#app/services/auth/one-time-tokens.server.ts";
import { type AuthFailure, toFailure } from "./sign-in.server.ts";

// Issue 25, login CSRF. A link carrying a `token_hash` is not bound to any browser: whoever holds
// it (the attacker who requested a magic link for their own account) can send it to someone else,
// and following it used to sign that browser into the attacker's account — silently replacing the
// session it had. Such links are therefore never followed on a GET: the page names the account the
// link signs into (and the one signed in now) and the visitor continues with a POST that carries a
// nonce from a SameSite=Strict cookie this page set, which another site's form cannot send.
// Links that come back with a PKCE `code` are bound to the browser that asked for them (its code
// verifier cookie), so they are exchanged directly.

/** The `type` values an email link can carry to verifyOtp, and the token kinds behind each. */
const LINK_TYPES: Record<string, readonly OneTimeTokenType[]> = {
  magiclink: ["magiclink"],
  recovery: ["recovery"],
  signup: ["confirmation"],
  invite: ["invite"],
  email_change: ["email_change"],
  email: ["magiclink", "confirmation"],
};
export type EmailLinkType = "magiclink" | "recovery" | "signup" | "invite" | "email_change" | "email";

export function isEmailLinkType(type: string | null): type is EmailLinkType {
  return type !== null && Object.hasOwn(LINK_TYPES, type);
}

export const LINK_CONFIRM_COOKIE = "murmur-link-confirm";
const NONCE_TTL_SECONDS = 15 * 60;

/**
 * The address the link was sent to, read without using the link up; null when the embedded auth
 * server does not know the token (hosted Supabase keeps its tokens to itself, or the link expired).
 */
export async function emailLinkAddress(runtime: Runtime, tokenHash: string, type: EmailLinkType): Promise<string | null> {
  if (runtime.env.SUPABASE_URL) return null;
  return peekLinkTokenAddress(runtime.auth, tokenHash, LINK_TYPES[type] ?? []);
}

/** A new nonce for the confirm form and the cookie that holds its hash. */
export function issueLinkConfirmNonce(secure: boolean): { nonce: string; cookie: string } {
  const nonce = randomBytes(24).toString("base64url");
  const cookie = [
    `${LINK_CONFIRM_COOKIE}=${digest(nonce)}`,
    "Path=/",
    `Max-Age=${NONCE_TTL_SECONDS}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
  return { nonce, cookie };
}

export function clearLinkConfirmCookie(secure: boolean): string {
  return [`${LINK_CONFIRM_COOKIE}=`, "Path=/", "Max-Age=0", "HttpOnly", "SameSite=Strict", ...(secure ? ["Secure"] : [])].join(
    "; ",
  );
}

/** Whether the posted nonce is the one this browser's confirm page was given. */
export function linkConfirmNonceMatches(cookieHeader: string | null, posted: unknown): boolean {
  if (typeof posted !== "string" || posted.length === 0 || posted.length > 100) return false;
  const stored = cookieHeader
    ?.split(";")
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${LINK_CONFIRM_COOKIE}=`))
    ?.slice(LINK_CONFIRM_COOKIE.length + 1);
  if (!stored) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(digest(posted));
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Follows a confirmed link: the account signed in now (if any) is signed out on this device first,
 * so a switch never leaves two accounts' tokens behind, then the link's account is signed in.
 */
export async function followEmailLink(
  supabase: SupabaseClient,
  link: { tokenHash: string; type: EmailLinkType; signedIn: boolean },
): Promise<AuthFailure | null> {
  if (link.signedIn) await supabase.auth.signOut({ scope: "local" });
  const { error } = await supabase.auth.verifyOtp({ token_hash: link.tokenHash, type: link.type });
  return error ? toFailure(error) : null;
}

function digest(nonce: string): string {
  return createHash("sha256").update(nonce).digest("base64url");
}
