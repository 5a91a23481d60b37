import { sql } from "kysely";
import type { NoteCheckKind } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { requireNoteRole } from "../access.server.ts";
import { ADVISORY_CHECK_KINDS, advisoryKinds } from "./checks.server.ts";

export type AdvisoryCheckKind = (typeof ADVISORY_CHECK_KINDS)[number];

/** GET /api/orgs/:id/note-checks: which kinds of check only advise (owners and clinicians read it). */
export function getCheckSettings(args: OrgServiceArgs & { orgId: string }): Promise<{ advisory: NoteCheckKind[] }> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    return { advisory: await advisoryKinds(trx, args.orgId) };
  });
}

/**
 * PUT /api/orgs/:id/note-checks {advisory}: the owner decides which kinds must be cleared before a
 * signature (issue 27): low-confidence words and omissions may only advise; contradictions and
 * unsupported sentences always gate (the schema offers no other kinds). Audited as org.updated.
 */
export function setCheckSettings(
  args: OrgServiceArgs & { orgId: string; advisory: readonly AdvisoryCheckKind[] },
): Promise<{ advisory: NoteCheckKind[] }> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), ["owner"]);
    const before = await advisoryKinds(trx, args.orgId);
    const after = ADVISORY_CHECK_KINDS.filter((k) => args.advisory.includes(k));
    if (before.join() !== after.join()) {
      await trx
        .updateTable("organizations")
        .set({
          settings: sql<
            Record<string, unknown>
          >`settings || jsonb_build_object('advisory_checks', ${JSON.stringify(after)}::jsonb)`,
        })
        .where("id", "=", args.orgId)
        .execute();
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "org.updated",
        entity: "organization",
        entityId: args.orgId,
        details: { changes: { advisory_checks: { from: before, to: after } } },
        meta: args.meta,
      });
    }
    return { advisory: after };
  });
}
