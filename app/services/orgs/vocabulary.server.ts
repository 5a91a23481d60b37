import type { OrgRole } from "#app/db/schema.ts";
import { enqueueVocabularyRefresh } from "#app/services/speech/org-vocab/jobs.server.ts";
import type { TermSource, VocabularyTerm } from "#app/services/speech/org-vocab/terms.ts";
import { recordAudit } from "./audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "./context.server.ts";

/**
 * Settings → Organisation → Speech vocabulary (issue 15, ADR 0032): the owner's own word list and
 * what the refresh job learned from the practice's names, templates and signed notes. Owners only:
 * the learned terms come from signed notes, and the row's policies (migration 0035) say the same.
 */

const OWNERS: readonly OrgRole[] = ["owner"];
/** How many learned words the page lists per source (the rest are counted). */
const SHOWN_PER_SOURCE = 40;

export interface VocabularyView {
  customTerms: string[];
  learned: Record<Exclude<TermSource, "custom">, { words: string[]; total: number }>;
  refreshedAt: Date | null;
}

type Args = OrgServiceArgs & { orgId: string };

export async function getVocabulary(args: Args): Promise<VocabularyView> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), OWNERS);
    const row = await trx
      .selectFrom("org_vocabulary")
      .select(["custom_terms", "terms", "refreshed_at"])
      .where("org_id", "=", args.orgId)
      .executeTakeFirst();
    const terms = Array.isArray(row?.terms) ? (row.terms as VocabularyTerm[]) : [];
    const learned = { clinician: [], template: [], note: [] } as Record<Exclude<TermSource, "custom">, string[]>;
    for (const term of terms) if (term.source !== "custom") learned[term.source]?.push(term.word);
    const view = (words: string[]) => ({ words: words.slice(0, SHOWN_PER_SOURCE), total: words.length });
    return {
      customTerms: row?.custom_terms ?? [],
      learned: { clinician: view(learned.clinician), template: view(learned.template), note: view(learned.note) },
      refreshedAt: row?.refreshed_at ?? null,
    };
  });
}

/** Replaces the owner's list (already validated by the route) and queues a refresh at once. */
export async function setCustomTerms(args: Args & { terms: readonly string[] }): Promise<void> {
  checkOrgId(args.orgId);
  await asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), OWNERS);
    const values = { custom_terms: [...args.terms], updated_by: args.actor.userId, updated_at: new Date() };
    await trx
      .insertInto("org_vocabulary")
      .values({ org_id: args.orgId, ...values })
      .onConflict((oc) => oc.column("org_id").doUpdateSet(values))
      .execute();
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "org.updated",
      entity: "organization",
      entityId: args.orgId,
      details: { vocabulary_terms: args.terms.length },
      meta: args.meta,
    });
  });
  await enqueueVocabularyRefresh(args.db, args.orgId, { delaySeconds: 0 });
}
