import type { OrgRole } from "#app/db/schema.ts";
import { CODING_REJECT_REASONS, isCodingRejectReason } from "#app/services/coding/reject-reasons.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole } from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import {
  type QualityReport,
  qualitySummary,
  qualityTrend,
  type SectionExample,
  sectionExamples,
  sectionQuality,
} from "./quality.server.ts";
import { type CodingQuality, codingQuality, type RejectReason, rejectReasons } from "./quality-coding.server.ts";
import { buildRange } from "./range.ts";
import { type DashboardRangeQuery, resolveDays } from "./schema.ts";

// Issue 16 "Quality tab": owners see the practice (or one clinician), each clinician their own
// notes only, whatever they ask. Staff and admins may not read notes (docs/permissions.md): 403.

export const QUALITY_ROLES: readonly OrgRole[] = ["owner", "clinician"];

export interface QualityPage extends QualityReport {
  range: { from: string; to: string; timezone: string };
  clinician_id: string | null;
  /** The 10 most-edited sections, with the latest example of each (draft and signed text: PHI, page only). */
  examples: SectionExample[];
  /** Coding suggestions accepted, edited, rejected (issue 13's cases coded in the range). */
  coding: CodingQuality;
  /** The rejections' reasons, most frequent first (the coders' words: page only). */
  reject_reasons: RejectReason[];
}

export async function loadQuality(
  args: OrgServiceArgs & { orgId: string; query: DashboardRangeQuery; now?: Date; withExamples?: boolean },
): Promise<QualityPage> {
  checkOrgId(args.orgId);
  const now = args.now ?? new Date();
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    if (!QUALITY_ROLES.includes(role)) throw new AppError(403, "forbidden_role", "Quality figures need access to notes");
    const org = await trx.selectFrom("organizations").select("timezone").where("id", "=", args.orgId).executeTakeFirstOrThrow();
    const timezone = org.timezone || "UTC";
    const requested = args.query.clinician_id;
    const clinicianId = role === "clinician" ? args.actor.userId : requested && requested !== "all" ? requested : null;
    const { from, to } = resolveDays(args.query, timezone, now);
    const range = buildRange(from, to, timezone);
    const scope = { orgId: args.orgId, clinicianId };
    const sections = await sectionQuality(trx, scope, range);
    const top = sections.filter((s) => s.mean_edit_ratio > 0).slice(0, 10);
    return {
      range: { from, to, timezone },
      clinician_id: clinicianId,
      summary: await qualitySummary(trx, scope, range),
      sections,
      trend: await qualityTrend(trx, scope, range),
      examples: args.withExamples ? await sectionExamples(trx, scope, range, top) : [],
      coding: await codingQuality(trx, scope, range),
      reject_reasons: await rejectReasons(trx, scope, range),
    };
  });
}

/** The privacy-preserving export: counts, rates, section keys and template ids — no text, no ids of notes or people. */
export function qualityExport(page: QualityPage) {
  return {
    range: page.range,
    scope: page.clinician_id ? "clinician" : "practice",
    accepted_threshold: 0.1,
    summary: page.summary,
    sections: page.sections,
    trend: page.trend,
    // Counts only: the coding page's reason codes by name, the API's free text (the coders' own
    // words, which may describe a patient) as one number.
    coding: {
      ...page.coding,
      reject_reasons: Object.fromEntries(
        CODING_REJECT_REASONS.map((code) => [code, page.reject_reasons.find((r) => r.reason === code)?.count ?? 0]),
      ),
      reject_reasons_free_text: page.reject_reasons
        .filter((r) => !isCodingRejectReason(r.reason))
        .reduce((n, r) => n + r.count, 0),
    },
  };
}
