import { z } from "zod";
import { addDays } from "#app/utils/zoned-time.ts";
import { DEFAULT_RANGE_DAYS, daysBetween, MAX_RANGE_DAYS, presetRange } from "./range.ts";

// The dashboard's query (page and GET /api/dashboard): a preset range or from/to, and a clinician.

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const Day = z.iso.date().refine((day) => day >= "2000-01-01" && day <= "2999-12-31");

export const DashboardRangeQuerySchema = z
  .object({
    // A preset (7, 30, 90 days up to today) wins over from/to; "custom" (the page's choice) uses them.
    range: z.preprocess(blank, z.enum(["7", "30", "90", "custom"]).optional()),
    from: z.preprocess(blank, Day.optional()),
    to: z.preprocess(blank, Day.optional()),
    // A member's user id, or "all" for the whole practice; absent = the role's default.
    clinician_id: z.preprocess(blank, z.union([z.literal("all"), z.guid()]).optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], error: "invalid_range" })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) <= MAX_RANGE_DAYS, { path: ["to"], error: "range_too_long" });

export type DashboardRangeQuery = z.infer<typeof DashboardRangeQuerySchema>;

/**
 * The days the query asks for: a preset range; else from/to when both are given; `from` alone runs to today (at most a
 * year); `to` alone ends a 30-day range; nothing is the last 30 days.
 */
export function resolveDays(q: DashboardRangeQuery, timezone: string, now: Date): { from: string; to: string } {
  if (q.range && q.range !== "custom") return presetRange(Number(q.range), timezone, now);
  const days = DEFAULT_RANGE_DAYS;
  if (q.from && q.to) return { from: q.from, to: q.to };
  if (q.from) {
    const today = presetRange(1, timezone, now).to;
    const last = addDays(q.from, MAX_RANGE_DAYS - 1);
    return { from: q.from, to: today < q.from ? q.from : today > last ? last : today };
  }
  if (q.to) return { from: addDays(q.to, -(days - 1)), to: q.to };
  return presetRange(days, timezone, now);
}
