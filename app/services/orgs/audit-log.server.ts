import { sql } from "kysely";
import { zonedDayBounds, zonedDayStart } from "#app/utils/zoned-time.ts";
import type { OrgAuditAction } from "./audit.server.ts";
import { asActor, checkOrgId, MANAGER_ROLES, type OrgServiceArgs, requireMemberRole, requireRole } from "./context.server.ts";

/** Rows per page of Settings → Audit log. */
export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  actorId?: string;
  action?: OrgAuditAction;
  /** Calendar days (YYYY-MM-DD), inclusive, in the organisation's time zone. */
  from?: string;
  to?: string;
  /** Keyset cursor: the id of the last row of the previous page. */
  before?: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor_id: string | null;
  /** Null when the actor is no longer a member: their email is outside what the app role may read. */
  actor_email: string | null;
  action: string;
  entity: string | null;
  entity_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export interface AuditDirectoryEntry {
  user_id: string;
  email: string | null;
  full_name: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The cursor of the next (older) page, or null on the last page. */
  next: string | null;
  /** The current members, for the actor filter and for naming members the entries are about. */
  members: AuditDirectoryEntry[];
  timezone: string;
}

/**
 * Settings → Audit log (issue 4): owners and admins read their organisation's trail, newest first,
 * filtered by actor, action and days. The role is checked here (403 forbidden_role) and again by
 * the audit_log_select policy, so a clinician or staff member gets nothing even if this check went.
 */
export async function listAuditLog(
  args: OrgServiceArgs & { orgId: string; filters: AuditFilters; limit?: number },
): Promise<AuditPage> {
  checkOrgId(args.orgId);
  const limit = args.limit ?? AUDIT_PAGE_SIZE;
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), MANAGER_ROLES);
    const org = await trx.selectFrom("organizations").select("timezone").where("id", "=", args.orgId).executeTakeFirstOrThrow();
    const { filters } = args;
    let query = trx
      .selectFrom("audit_log as a")
      .select([
        sql<string>`a.id::text`.as("id"),
        "a.at",
        "a.actor_id",
        "a.action",
        "a.entity",
        "a.entity_id",
        "a.ip",
        "a.details",
      ])
      .where("a.org_id", "=", args.orgId);
    if (filters.actorId) query = query.where("a.actor_id", "=", filters.actorId);
    if (filters.action) query = query.where("a.action", "=", filters.action);
    // Days are the organisation's: [start of `from`, start of the day after `to`) on its wall clock.
    if (filters.from) query = query.where("a.at", ">=", zonedDayStart(filters.from, org.timezone));
    if (filters.to) query = query.where("a.at", "<", zonedDayBounds(filters.to, org.timezone).end);
    if (filters.before) {
      // The cursor row's own timestamp, read in the database: JavaScript dates would drop its microseconds.
      query = query.where(
        sql<boolean>`(a.at, a.id) < (select c.at, c.id from public.audit_log c where c.org_id = ${args.orgId} and c.id = ${filters.before}::bigint)`,
      );
    }
    const rows = await query
      .orderBy("a.at", "desc")
      .orderBy("a.id", "desc")
      .limit(limit + 1)
      .execute();
    const { rows: members } = await sql<AuditDirectoryEntry>`
      select user_id, email, full_name from public.org_member_directory(${args.orgId})`.execute(trx);
    const emails = new Map(members.map((m) => [m.user_id, m.email]));
    const page = rows.slice(0, limit);
    return {
      entries: page.map((row) => ({
        ...row,
        at: new Date(row.at).toISOString(),
        actor_email: row.actor_id ? (emails.get(row.actor_id) ?? null) : null,
        details: row.details ?? {},
      })),
      next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      members,
      timezone: org.timezone,
    };
  });
}
