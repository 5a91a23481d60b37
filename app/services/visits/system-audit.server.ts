import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgAuditAction } from "#app/services/orgs/audit.server.ts";

/**
 * An audit entry written by the system (the transcription job), with no actor: on the owner
 * connection, the path 0003's audit_log_insert comment leaves for entries on behalf of nobody.
 * recordAudit needs a signed-in actor, so this is its sibling for jobs.
 */
export async function recordSystemAudit(
  trx: ActorTransaction,
  entry: { orgId: string; action: OrgAuditAction; entity: "visit"; entityId: string; details?: Record<string, unknown> },
): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      org_id: entry.orgId,
      actor_id: null,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      details: sql<Record<string, unknown>>`${JSON.stringify(entry.details ?? {})}::jsonb`,
    })
    .execute();
}
