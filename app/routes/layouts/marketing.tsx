import { Outlet } from "react-router";
import { MarketingHeader } from "#app/components/marketing-header.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { anonymousPageHeaders } from "#app/utils/page-cache.ts";

// The same page for every visitor without cookies: served from the anonymous page cache.
export const headers = anonymousPageHeaders;

export default function MarketingLayout() {
  return (
    <>
      <MarketingHeader />
      <main className="container marketing-main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
