import type { OrgPlan, OrgPms } from "#app/db/schema.ts";

// SPEC §2 "Global UI", §6: the practice-management announcement. SPEC leaves the link targets
// unnamed; until a hosted video and a booking page exist they point at Murmur's own pages.
export const PMS_BANNER_VIDEO_PATH = "/product";
export const PMS_BANNER_BOOK_CALL_PATH = "/contact";

/** Shown only when the plan is not Clinic and the PMS is MacPractice (and it was not dismissed). */
export function isPmsBannerEligible(org: { plan: OrgPlan; pms: OrgPms }): boolean {
  return org.plan !== "Clinic" && org.pms === "macpractice";
}

/** Dismissal is remembered per organisation in local storage (SPEC §2). */
export function pmsBannerStorageKey(orgId: string): string {
  return `murmur-pms-banner-dismissed:${orgId}`;
}

export function isPmsBannerDismissed(orgId: string): boolean {
  try {
    return window.localStorage.getItem(pmsBannerStorageKey(orgId)) === "1";
  } catch {
    // Storage blocked (privacy settings): the banner shows, and a dismissal lasts for the page.
    return false;
  }
}

export function dismissPmsBanner(orgId: string): void {
  try {
    window.localStorage.setItem(pmsBannerStorageKey(orgId), "1");
  } catch {
    // See isPmsBannerDismissed.
  }
}
