import type { RouterContextProvider } from "react-router";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { type DashboardData, loadDashboardData } from "./dashboard.server.ts";
import { loadQuality, QUALITY_ROLES, type QualityPage } from "./quality-report.server.ts";
import { type DashboardRangeQuery, DashboardRangeQuerySchema } from "./schema.ts";

const KEYS = ["range", "from", "to", "clinician_id"] as const;

export interface DashboardFiguresPage {
  figures: DashboardData;
  /** A stable code the page translates when the query could not be used (the default view is shown). */
  error: "invalid_range" | "invalid_clinician" | null;
  /** The form's values: what the figures are for. */
  filters: { range: string; from: string; to: string; clinician: string };
  /** The query of the CSV links: the same view. */
  csvQuery: string;
  now: string;
  tab: "overview" | "quality";
  /** The Quality tab's figures; null on the overview, or when the role may not read notes. */
  quality: QualityPage | null;
}

/** /dashboard's figures (issue 16): a query that cannot be read is answered with the default view and an error code. */
export async function loadDashboardFigures(
  context: Readonly<RouterContextProvider>,
  request: Request,
  params: URLSearchParams,
  now = new Date(),
): Promise<DashboardFiguresPage> {
  const args = orgPageArgs(context, request);
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const parsed = DashboardRangeQuerySchema.safeParse(raw);
  let error: DashboardFiguresPage["error"] = parsed.success ? null : "invalid_range";
  let query: DashboardRangeQuery = parsed.success ? parsed.data : {};
  let figures: DashboardData;
  try {
    figures = await loadDashboardData({ ...args, query, now });
  } catch (thrown) {
    if (!isAppError(thrown) || thrown.code !== "invalid_clinician") throw thrown;
    error = "invalid_clinician";
    query = { ...query, clinician_id: undefined };
    figures = await loadDashboardData({ ...args, query, now });
  }
  const preset = query.range && query.range !== "custom" ? query.range : null;
  const clinician = figures.clinician_id ?? "all";
  const csv = new URLSearchParams({ from: figures.range.from, to: figures.range.to, clinician_id: clinician });
  const tab = params.get("tab") === "quality" ? "quality" : "overview";
  const quality =
    tab === "quality" && QUALITY_ROLES.includes(figures.role)
      ? await loadQuality({ ...args, query, now, withExamples: true })
      : null;
  return {
    tab,
    quality,
    figures,
    error,
    filters: {
      range: preset ?? (query.from || query.to ? "custom" : "30"),
      from: figures.range.from,
      to: figures.range.to,
      clinician,
    },
    csvQuery: csv.toString(),
    now: now.toISOString(),
  };
}
