import { Outlet } from "react-router";
import { MarketingHeader } from "#app/components/marketing-header.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";

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
