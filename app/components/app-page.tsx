import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageMeta } from "./page-meta.tsx";
import { Page } from "./ui/page.tsx";

/**
 * The frame of a signed-in page on the design system's Page (issue 11): its translated title, the
 * line saying what it is for, optional actions on the right, then its content.
 */
export function AppPage({ page, actions, children }: { page: string; actions?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation("app");
  return (
    <div className="app-page" data-page={page}>
      <PageMeta title={t(`${page}.title`)} />
      <Page title={t(`${page}.title`)} description={t(`${page}.intro`)} actions={actions}>
        {children}
      </Page>
    </div>
  );
}
