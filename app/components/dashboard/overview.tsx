import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { DashboardFiguresPage } from "#app/services/dashboard/page.server.ts";
import { CsvLink } from "./csv-link.tsx";
import { FiguresPanel } from "./figures-panel.tsx";
import { DashboardFilters } from "./filters.tsx";
import { PlanPanel } from "./plan-panel.tsx";
import { QualityPanel } from "./quality-panel.tsx";
import { QueuesPanel } from "./queues-panel.tsx";
import { TodayPanel } from "./today-panel.tsx";

/** Issue 16: the morning view, first part — today and what waits. */
export function DashboardToday({ page }: { page: DashboardFiguresPage }) {
  const { t } = useTranslation("dashboard");
  const { figures } = page;
  return (
    <div className="dash" data-testid="dashboard-overview">
      {page.error ? (
        <p role="alert" className="dash-alert" data-error={page.error}>
          {t(`errors.${page.error}`)}
        </p>
      ) : null}
      {figures.visible.clinical ? null : <p className="dash-note">{t("adminNotice")}</p>}
      {figures.today ? (
        <TodayPanel today={{ ...figures.today, timezone: figures.range.timezone }} notes={figures.visible.notes} />
      ) : null}
      <QueuesPanel queues={figures.queues} now={page.now} />
    </div>
  );
}

/** The second part: the range's figures (with their filters and CSV) or the Quality tab, and the plan. */
export function DashboardFigures({ page, selfId }: { page: DashboardFiguresPage; selfId: string }) {
  const { t } = useTranslation("dashboard");
  const { figures } = page;
  return (
    <div className="dash">
      <DashboardTabs tab={page.tab} query={page.csvQuery} />
      {page.tab === "quality" ? (
        <>
          <DashboardFilters
            values={page.filters}
            clinicians={figures.role === "clinician" ? [] : figures.clinicians}
            selfId={selfId}
            summary={t("filters.summary", { from: figures.range.from, to: figures.range.to, timezone: figures.range.timezone })}
            csv={null}
            tab="quality"
          />
          {page.quality ? (
            <QualityPanel quality={page.quality} exportQuery={page.csvQuery} />
          ) : (
            <p className="dash-note">{t("quality.forbidden")}</p>
          )}
        </>
      ) : figures.visible.clinical ? (
        <>
          <DashboardFilters
            values={page.filters}
            clinicians={figures.clinicians}
            selfId={selfId}
            summary={t("filters.summary", { from: figures.range.from, to: figures.range.to, timezone: figures.range.timezone })}
            csv={<CsvLink query={page.csvQuery} figure="summary" />}
          />
          <FiguresPanel data={figures} csvQuery={page.csvQuery} />
        </>
      ) : null}
      <PlanPanel plan={figures.plan} />
    </div>
  );
}

/** Overview and Quality as links (a tab is a URL: it works without JavaScript and survives a reload). */
function DashboardTabs({ tab, query }: { tab: DashboardFiguresPage["tab"]; query: string }) {
  const { t } = useTranslation("dashboard");
  const to = useLocalizedPath();
  const quality = new URLSearchParams(query);
  quality.set("tab", "quality");
  return (
    <nav aria-label={t("tabs.label")} className="dash-tabs" data-testid="dashboard-tabs">
      <Link to={`${to("/dashboard")}?${query}#figures`} aria-current={tab === "overview" ? "page" : undefined}>
        {t("tabs.overview")}
      </Link>
      <Link to={`${to("/dashboard")}?${quality}#quality`} aria-current={tab === "quality" ? "page" : undefined}>
        {t("tabs.quality")}
      </Link>
    </nav>
  );
}
