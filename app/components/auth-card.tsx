import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageMeta } from "./page-meta.tsx";

/** The frame of a sign-in journey page; titles and descriptions per SPEC §1. */
export function AuthCard({ page, children }: { page: string; children?: ReactNode }) {
  const { t } = useTranslation("auth");
  return (
    <article className="auth-card" data-page={page}>
      <PageMeta title={t(`${page}.title`)} description={t(`${page}.description`)} />
      <hgroup>
        <h1>{t(`${page}.heading`)}</h1>
        <p>{t(`${page}.description`)}</p>
      </hgroup>
      {children}
    </article>
  );
}
