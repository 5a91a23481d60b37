import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { PmsBanner } from "./pms-banner.tsx";
import { TrialBanner } from "./trial-banner.tsx";

/** Banners about the current organisation, above the page: its trial, then the PMS announcement (SPEC §2). */
export function OrgBanners({ org }: { org: MemberOrg }) {
  return (
    <div className="container org-banners" data-org={org.id}>
      <TrialBanner org={org} />
      <PmsBanner org={org} />
    </div>
  );
}
