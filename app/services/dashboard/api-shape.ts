import type { DashboardData } from "./dashboard.server.ts";

/**
 * GET /api/dashboard's body (docs/api.md "Dashboard"): counts only, no patient names. A figure the
 * caller's role may not see is null. Coding figures count issue 13's coding cases.
 */
export function dashboardJson(data: DashboardData) {
  const series = data.series;
  return {
    range: data.range,
    clinician_id: data.clinician_id,
    today: data.today ? { date: data.today.date, ...data.today.by_status } : null,
    queues: {
      drafts_to_sign: data.queues.drafts_to_sign?.count ?? null,
      coding_open: data.queues.coding_open?.count ?? null,
      failed_transcriptions: data.queues.failed_transcriptions?.count ?? null,
      invitations_pending: data.queues.invitations_pending,
    },
    series: series
      ? {
          visits_per_day: series.map((d) => ({ date: d.date, count: d.visits })),
          recorded_minutes_per_day: series.map((d) => ({ date: d.date, minutes: d.recorded_minutes })),
          notes_signed_per_day: data.visible.notes ? series.map((d) => ({ date: d.date, count: d.notes_signed ?? 0 })) : null,
          coding_coded_per_day: series.map((d) => ({ date: d.date, count: d.coding_coded })),
          coding_exported_per_day: series.map((d) => ({ date: d.date, count: d.coding_exported })),
        }
      : null,
    medians: data.medians,
    per_clinician: data.per_clinician,
    plan: data.plan,
  };
}
