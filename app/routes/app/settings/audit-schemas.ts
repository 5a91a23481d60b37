import { z } from "zod";
import { ORG_AUDIT_ACTIONS } from "#app/services/orgs/audit.server.ts";

/** An empty select or date input submits "": the same as leaving the filter out. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

// Years outside this window are typos, and keep the day arithmetic inside what Date.UTC handles.
const Day = z.iso.date().refine((day) => day >= "1970-01-01" && day <= "2999-12-31");

/**
 * The GET filters of Settings → Audit log (issue 4: actor, action, date), plus the page cursor.
 * Days are calendar days in the organisation's time zone; `day` is one day (`from` = `to` = `day`),
 * so it cannot be combined with them.
 */
export const AuditFilterSchema = z
  .object({
    actor: optional(z.guid()),
    action: optional(z.enum(ORG_AUDIT_ACTIONS)),
    day: optional(Day),
    from: optional(Day),
    to: optional(Day),
    // A bigint id: at most 18 digits stays below its maximum.
    before: optional(z.string().regex(/^[1-9][0-9]{0,17}$/)),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ["to"] })
  .refine((f) => !f.day || (!f.from && !f.to), { path: ["day"] })
  .transform(({ day, ...f }) => (day ? { ...f, from: day, to: day } : f));

export type AuditFilterInput = z.infer<typeof AuditFilterSchema>;

const KEYS = ["actor", "action", "day", "from", "to", "before"] as const;

/**
 * The filters in a URL; null when any is malformed or given twice. Other parameters (the
 * organisation deep link `?org=`, `_routes`) are not the page's to judge.
 */
export function parseAuditFilters(params: URLSearchParams): AuditFilterInput | null {
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const values = params.getAll(key);
    if (values.length > 1) return null;
    if (values[0] !== undefined) raw[key] = values[0];
  }
  const parsed = AuditFilterSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
