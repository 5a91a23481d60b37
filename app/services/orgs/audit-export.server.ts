import { csvField } from "#app/services/dashboard/csv.ts";
import { todayInZone, zonedDateTime } from "#app/utils/zoned-time.ts";
import { recordAudit } from "./audit.server.ts";
import { type AuditEntry, type AuditFilters, listAuditLog } from "./audit-log.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole } from "./context.server.ts";
import { orgErrors } from "./errors.server.ts";

export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** Rows read per query while streaming: a large log never sits in memory or holds one long transaction. */
export const AUDIT_EXPORT_PAGE = 1000;

const CSV_COLUMNS = [
  "id",
  "at_utc",
  "at_local",
  "time_zone",
  "actor_id",
  "actor_email",
  "action",
  "entity",
  "entity_id",
  "patient_id",
  "ip",
  "details",
] as const;

export interface AuditExport {
  filename: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

type ExportFilters = Omit<AuditFilters, "before">;

/**
 * GET /api/orgs/:id/audit-log/export: the audit log with the tab's filters (actor, action, days in
 * the organisation's zone), newest first, as CSV or JSON. The role check and the "audit.exported"
 * entry commit before the first byte, so a refused export is a clean 403 and every export is itself
 * in the trail; the rows then stream page by page on the tab's keyset cursor, which new entries
 * written meanwhile cannot shift.
 */
export async function exportAuditLog(
  args: OrgServiceArgs & { orgId: string; filters: ExportFilters; format: AuditExportFormat; now?: Date },
): Promise<AuditExport> {
  checkOrgId(args.orgId);
  const now = args.now ?? new Date();
  const org = await asActor(args, args.orgId, async (trx) => {
    // Issue 17: the trail leaves the building only in an owner's hands (admins read it on screen).
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    if (role !== "owner") throw orgErrors.forbiddenRole("Only an owner can export the audit log");
    const row = await trx
      .selectFrom("organizations")
      .select(["slug", "timezone"])
      .where("id", "=", args.orgId)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "audit.exported",
      entity: "organization",
      entityId: args.orgId,
      details: { format: args.format, filters: args.filters },
      meta: args.meta,
    });
    return row;
  });
  const encoder = new TextEncoder();
  const write = args.format === "csv" ? csvWriter(org.timezone) : jsonWriter(args.orgId, org.timezone, args.filters, now);
  let before: string | undefined;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const head = started ? "" : write.head();
      started = true;
      const page = await listAuditLog({ ...args, filters: { ...args.filters, before }, limit: AUDIT_EXPORT_PAGE });
      const text = head + page.entries.map((entry) => write.row(entry)).join("");
      before = page.next ?? undefined;
      if (page.next === null) {
        controller.enqueue(encoder.encode(text + write.tail()));
        controller.close();
      } else {
        controller.enqueue(encoder.encode(text));
      }
    },
  });
  return {
    filename: `audit-log-${org.slug}-${todayInZone(org.timezone, now)}.${args.format}`,
    contentType: args.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    body,
  };
}

interface Writer {
  head(): string;
  row(entry: AuditEntry): string;
  tail(): string;
}

const patientOf = (entry: AuditEntry) => (typeof entry.details.patient_id === "string" ? entry.details.patient_id : null);

/** Wall-clock time with seconds in the organisation's zone: the day a reader filters by. */
const localTime = (iso: string, timeZone: string) => `${zonedDateTime(iso, timeZone)}:${iso.slice(17, 19)}`;

function csvWriter(timeZone: string): Writer {
  const line = (values: (string | null)[]) => `${values.map(csvField).join(",")}\r\n`;
  return {
    head: () => line([...CSV_COLUMNS]),
    row: (e) =>
      line([
        e.id,
        e.at,
        localTime(e.at, timeZone),
        timeZone,
        e.actor_id,
        e.actor_email,
        e.action,
        e.entity,
        e.entity_id,
        patientOf(e),
        e.ip,
        JSON.stringify(e.details),
      ]),
    tail: () => "",
  };
}

function jsonWriter(orgId: string, timeZone: string, filters: ExportFilters, now: Date): Writer {
  let first = true;
  return {
    head: () =>
      `{"organization_id":${JSON.stringify(orgId)},"time_zone":${JSON.stringify(timeZone)},"exported_at":${JSON.stringify(now.toISOString())},"filters":${JSON.stringify(filters)},"entries":[`,
    row: (e) => {
      const text = JSON.stringify({ ...e, at_local: localTime(e.at, timeZone), patient_id: patientOf(e) });
      const out = first ? `\n${text}` : `,\n${text}`;
      first = false;
      return out;
    },
    tail: () => "\n]}\n",
  };
}
