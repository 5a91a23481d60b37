import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageMeta } from "./page-meta.tsx";

/** The frame of a signed-in page: its translated title, intro line and content. */
export function AppPage({ page, children }: { page: string; children?: ReactNode }) {
  const { t } = useTranslation("app");
  return (
    <section className="app-page" data-page={page}>
      <PageMeta title={t(`${page}.title`)} />
      <hgroup>
        <h1>{t(`${page}.title`)}</h1>
        <p>{t(`${page}.intro`)}</p>
      </hgroup>
      {children}
    </section>
  );
}
