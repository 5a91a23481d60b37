import { ORG_PLANS, type OrgPlan } from "#app/db/schema.ts";
import { isAppError } from "#app/utils/app-error.ts";
import type { BillingProvider, ReturnArgs } from "./provider.server.ts";

// What the billing page tells the owner after a change or a checkout return. The URL's `stripe`
// and `session_id` are removed by a redirect (SPEC §2), so the outcome rides along in a one-minute
// cookie the next render reads and clears (redirect-after-post does the same for manual changes).

export type BillingNotice = { kind: "changed"; plan: OrgPlan } | { kind: "cancelled" } | { kind: "error"; code: string };

const COOKIE = "murmur-billing-notice";
const MAX_AGE_S = 60;
const CODE = /^[a-z_]{1,40}$/;

export function noticeCookie(notice: BillingNotice, secure: boolean): string {
  const value =
    notice.kind === "changed" ? `changed.${notice.plan}` : notice.kind === "error" ? `error.${notice.code}` : "cancelled";
  return `${COOKIE}=${value}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function clearNoticeCookie(secure: boolean): string {
  return `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The notice in the request's cookies; anything unexpected reads as none. */
export function readNotice(cookieHeader: string | null): BillingNotice | null {
  const raw = cookieHeader
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  if (!raw) return null;
  if (raw === "cancelled") return { kind: "cancelled" };
  const dot = raw.indexOf(".");
  const kind = raw.slice(0, Math.max(dot, 0));
  const rest = raw.slice(dot + 1);
  if (kind === "changed" && (ORG_PLANS as readonly string[]).includes(rest)) return { kind: "changed", plan: rest as OrgPlan };
  if (kind === "error" && CODE.test(rest)) return { kind: "error", code: rest };
  return null;
}

/** The provider's answer to a checkout return as a notice; refusals become an error notice, never a 500. */
export async function checkoutReturnNotice(provider: BillingProvider, args: ReturnArgs): Promise<BillingNotice | null> {
  try {
    const outcome = await provider.completeReturn(args);
    if (outcome.kind === "changed") return { kind: "changed", plan: outcome.plan };
    if (outcome.kind === "cancelled") return { kind: "cancelled" };
    return null;
  } catch (error) {
    if (isAppError(error)) return { kind: "error", code: error.code };
    throw error;
  }
}
