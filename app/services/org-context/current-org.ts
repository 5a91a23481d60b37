import { createContext, type RouterContextProvider } from "react-router";
import type { OrgKind, OrgPlan, OrgPms, OrgRole } from "#app/db/schema.ts";
import type { SessionUser } from "#app/services/session/user-context.ts";
import type { BootstrapErrorCode } from "./bootstrap.ts";

/** An organisation the signed-in user belongs to, as the app shell and pages see it. */
export interface MemberOrg {
  id: string;
  name: string;
  slug: string;
  kind: OrgKind;
  plan: OrgPlan;
  pms: OrgPms;
  timezone: string;
  region: string;
  /** ISO time; null once the organisation is on a paid plan. */
  trial_ends_at: string | null;
  /** Issue 11: the practice's accent colour (#rrggbb), null for Murmur's own; absent in older fixtures. */
  accent_color?: string | null;
  role: OrgRole;
}

/** What the app layout's middleware resolved for this request (SPEC §4, issue 4 "Bootstrap"). */
export interface OrgState {
  user: SessionUser;
  org: MemberOrg;
  role: OrgRole;
  /** Every organisation of the user, oldest first, for the switcher. */
  orgs: MemberOrg[];
  /**
   * Set when this request moved the user into another organisation (a deep link), for the notice:
   * the organisation they were in, or "" when none was remembered.
   */
  switchedFrom: string | null;
}

export const orgContext = createContext<OrgState | null>(null);

/** The bootstrap failure the app layout's error boundary renders with a retry button. */
export interface OrgBootstrapFailure {
  orgBootstrap: BootstrapErrorCode;
  message: string;
}

export function isOrgBootstrapFailure(value: unknown): value is OrgBootstrapFailure {
  return typeof value === "object" && value !== null && "orgBootstrap" in value;
}

/**
 * `{ user, org, role }` for a loader or action under the app layout. The layout's middleware has
 * already answered the request when there is no organisation, so a missing state is a wiring bug.
 */
export function requireOrg(context: Readonly<RouterContextProvider>): OrgState {
  const state = context.get(orgContext);
  if (!state) throw new Error("organisation middleware missing on this route");
  return state;
}
