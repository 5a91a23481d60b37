import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import {
  dismissPmsBanner,
  isPmsBannerDismissed,
  isPmsBannerEligible,
  PMS_BANNER_BOOK_CALL_PATH,
  PMS_BANNER_VIDEO_PATH,
} from "./pms-banner-state.ts";

/**
 * SPEC §2 "Global UI": the practice-management announcement. The dismissal lives in the browser's
 * storage, which the server cannot read, so nothing renders until after hydration: someone who
 * dismissed it never sees it flash, and the server and first client render agree (both empty).
 */
export function PmsBanner({ org }: { org: Pick<MemberOrg, "id" | "plan" | "pms"> }) {
  const { t } = useTranslation("billing");
  const to = useLocalizedPath();
  const headingId = useId();
  const eligible = isPmsBannerEligible(org);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    setVisible(eligible && !isPmsBannerDismissed(org.id));
  }, [eligible, org.id]);
  if (!visible) return null;
  return (
    <article className="pms-banner" aria-labelledby={headingId} data-testid="pms-banner">
      <header>
        <strong id={headingId}>{t("banners.pms.headline")}</strong>
      </header>
      <p>{t("banners.pms.body")}</p>
      <footer>
        <div className="grid">
          <Link to={to(PMS_BANNER_VIDEO_PATH)} data-testid="pms-banner-video">
            {t("banners.pms.watchVideo")}
          </Link>
          <Link to={to(PMS_BANNER_BOOK_CALL_PATH)} role="button" data-testid="pms-banner-book-call">
            {t("banners.pms.bookCall")}
          </Link>
          <button
            type="button"
            className="secondary outline"
            data-testid="pms-banner-dismiss"
            aria-label={`${t("banners.pms.dismiss")}: ${t("banners.pms.label")}`}
            onClick={() => {
              dismissPmsBanner(org.id);
              setVisible(false);
            }}
          >
            {t("banners.pms.dismiss")}
          </button>
        </div>
      </footer>
    </article>
  );
}
