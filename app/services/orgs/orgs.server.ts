import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import { ORG_PLANS, ORG_PMS, type OrgKind, type OrgPlan, type OrgPms, type OrgRole } from "#app/db/schema.ts";
import type { Locale } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";
import { type CodingProfile, codingProfile, isCodingProfile } from "#app/services/coding/profile.ts";
import { audioRetentionDays, isRetentionDays } from "#app/services/visits/retention.ts";
import { accentIsReadable } from "#app/utils/accent.ts";
import { recordAudit } from "./audit.server.ts";
import { asActor, checkOrgId, MANAGER_ROLES, type OrgServiceArgs, requireMemberRole, requireRole } from "./context.server.ts";
import { orgErrors } from "./errors.server.ts";
import { FEMININE_GIVEN_NAMES, MASCULINE_GIVEN_NAMES_IN_A } from "./given-names.ts";

/** An organisation as the API lists it, with the actor's role in it. */
export interface OrgSummary {
  id: string;
  name: string;
  slug: string;
  kind: OrgKind;
  plan: OrgPlan;
  pms: OrgPms;
  timezone: string;
  region: string;
  role: OrgRole;
}

export interface OrgDetails extends OrgSummary {
  trial_ends_at: string | null;
  /** Issue 5 "Storage": days a visit's audio is kept after its transcript is accepted (0–365). */
  audio_retention_days: number;
  /** Issue 13: the organisation's code systems (medical: ICD-10-CM + CPT/HCPCS; dental: ICD-10-CM + CDT). */
  coding_profile: CodingProfile;
  /** Issue 11: the practice's accent colour (#rrggbb), null for Murmur's own. */
  accent_color: string | null;
  created_at: string;
}

/** GET /api/orgs: every organisation the actor belongs to, oldest first. */
export function listMyOrgs(args: OrgServiceArgs): Promise<OrgSummary[]> {
  return asActor(args, null, (trx) =>
    trx
      .selectFrom("organizations as o")
      .innerJoin("org_members as m", "m.org_id", "o.id")
      .select(["o.id", "o.name", "o.slug", "o.kind", "o.plan", "o.pms", "o.timezone", "o.region", "m.role"])
      .where("m.user_id", "=", args.actor.userId)
      .orderBy("o.created_at")
      .orderBy("o.id")
      .execute(),
  );
}

/** POST /api/orgs: a practice organisation on a 14-day trial, owned by the actor (create_organization()). */
export function createOrg(args: OrgServiceArgs & { name: string }): Promise<{ id: string }> {
  return asActor(args, null, async (trx) => {
    const { rows } = await sql<{ id: string }>`select public.create_organization(${args.name}) as id`.execute(trx);
    const id = rows[0]?.id;
    if (!id) throw new Error("create_organization returned no id");
    await recordAudit(trx, {
      orgId: id,
      actorId: args.actor.userId,
      action: "org.created",
      entity: "organization",
      entityId: id,
      details: { name: args.name.trim() },
      meta: args.meta,
    });
    return { id };
  });
}

/** SPEC §1: the personal organisation's name template in the user's language ("Dr %s's practice"). */
export function personalOrgNameTemplate(locale: Locale): string {
  return resources[locale].app.orgs.personalName;
}

/**
 * Issue 11: templates for a name that already starts with a title ("Dr Ana Ruiz", "Dra. Ana Ruiz",
 * "Pr Ana Ruiz"), so the title is not doubled; see migration 0014.
 */
export function personalOrgTitleTemplates(locale: Locale): Record<"dr" | "dr_f" | "pr" | "pr_f" | "untitled", string> {
  return resources[locale].app.orgs.personalTitled;
}

/**
 * What ensure_personal_org() receives: the title templates, and for Spanish the given-name hints that
 * turn "Dr Ana Ruiz" into "Consultorio de la Dra. Ana Ruiz" (migration 0032, given-names.ts).
 */
export function personalOrgTitleArgument(locale: Locale): Record<string, unknown> {
  const templates = personalOrgTitleTemplates(locale);
  if (locale !== "es") return templates;
  return { ...templates, feminine_given: FEMININE_GIVEN_NAMES, masculine_given_in_a: MASCULINE_GIVEN_NAMES_IN_A };
}

/**
 * POST /api/orgs/personal (SPEC §4 "Organisation bootstrap"): the actor's personal organisation,
 * created on first call. Idempotent and safe under concurrent calls (ensure_personal_org()).
 */
export function ensurePersonalOrg(args: OrgServiceArgs & { locale: Locale }): Promise<{ id: string }> {
  return asActor(args, null, async (trx) => {
    const before = await trx
      .selectFrom("org_members as m")
      .innerJoin("organizations as o", "o.id", "m.org_id")
      .select("o.id")
      .where("o.created_by", "=", args.actor.userId)
      .where("o.kind", "=", "personal")
      .executeTakeFirst();
    const template = personalOrgNameTemplate(args.locale);
    const titles = JSON.stringify(personalOrgTitleArgument(args.locale));
    const { rows } = await sql<{ id: string }>`select public.ensure_personal_org(${template}, ${titles}::jsonb) as id`.execute(
      trx,
    );
    const id = rows[0]?.id;
    if (!id) throw new Error("ensure_personal_org returned no id");
    if (!before) {
      // Concurrent first calls each log at most once per transaction; a lost race just re-reads the winner.
      await recordAudit(trx, {
        orgId: id,
        actorId: args.actor.userId,
        action: "org.personal_created",
        entity: "organization",
        entityId: id,
        meta: args.meta,
      });
    }
    return { id };
  });
}

/** GET /api/orgs/:id: any member; anyone else gets 404. */
export function getOrg(args: OrgServiceArgs & { orgId: string }): Promise<OrgDetails> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    return readOrg(trx, args.orgId, role);
  });
}

export interface OrgPatch {
  name?: string;
  timezone?: string;
  region?: string;
  pms?: OrgPms;
  plan?: OrgPlan;
  audio_retention_days?: number;
  coding_profile?: CodingProfile;
  /** #rrggbb that white text reads on (app/utils/accent.ts), or null to go back to Murmur's own. */
  accent_color?: string | null;
}

/**
 * PATCH /api/orgs/:id (Settings → Organisation): owners and admins change name, timezone, region and
 * PMS; only an owner changes the plan (the manual billing provider; the trigger enforces it too).
 */
export function updateOrg(args: OrgServiceArgs & { orgId: string; patch: OrgPatch }): Promise<OrgDetails> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(role, MANAGER_ROLES);
    const { patch } = args;
    if (patch.plan !== undefined && role !== "owner") throw orgErrors.forbiddenRole("Only an owner can change the plan");
    if (patch.plan !== undefined && !ORG_PLANS.includes(patch.plan)) throw new Error("unknown plan");
    if (patch.pms !== undefined && !ORG_PMS.includes(patch.pms)) throw new Error("unknown pms");
    if (patch.audio_retention_days !== undefined && !isRetentionDays(patch.audio_retention_days)) {
      throw new Error("audio retention out of range");
    }
    if (patch.coding_profile !== undefined && !isCodingProfile(patch.coding_profile)) throw new Error("unknown coding profile");
    if (patch.accent_color != null && !accentIsReadable(patch.accent_color)) throw new Error("unreadable accent colour");
    const before = await readOrg(trx, args.orgId, role);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of [
      "name",
      "timezone",
      "region",
      "pms",
      "plan",
      "audio_retention_days",
      "coding_profile",
      "accent_color",
    ] as const) {
      const value = patch[key];
      if (value !== undefined && value !== before[key]) changes[key] = { from: before[key], to: value };
    }
    if (Object.keys(changes).length === 0) return before;
    await trx
      .updateTable("organizations")
      .set({
        ...(changes.name ? { name: patch.name } : {}),
        ...(changes.timezone ? { timezone: patch.timezone } : {}),
        ...(changes.region ? { region: patch.region } : {}),
        ...(changes.pms ? { pms: patch.pms } : {}),
        ...(changes.plan ? { plan: patch.plan } : {}),
        ...(changes.accent_color ? { accent_color: patch.accent_color ?? null } : {}),
        // Keys of the settings object; the others stay as they are.
        ...(changes.audio_retention_days || changes.coding_profile
          ? {
              settings: sql<Record<string, unknown>>`settings${
                changes.audio_retention_days
                  ? sql` || jsonb_build_object('audio_retention_days', ${patch.audio_retention_days}::int)`
                  : sql``
              }${changes.coding_profile ? sql` || jsonb_build_object('coding_profile', ${patch.coding_profile}::text)` : sql``}`,
            }
          : {}),
      })
      .where("id", "=", args.orgId)
      .execute();
    const { plan, ...settings } = changes;
    if (Object.keys(settings).length > 0) {
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "org.updated",
        entity: "organization",
        entityId: args.orgId,
        details: { changes: settings },
        meta: args.meta,
      });
    }
    if (plan) {
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "org.plan_changed",
        entity: "organization",
        entityId: args.orgId,
        details: { from: plan.from, to: plan.to, provider: "manual" },
        meta: args.meta,
      });
    }
    return readOrg(trx, args.orgId, role);
  });
}

async function readOrg(trx: ActorTransaction, orgId: string, role: OrgRole): Promise<OrgDetails> {
  const row = await trx
    .selectFrom("organizations")
    .select([
      "id",
      "name",
      "slug",
      "kind",
      "plan",
      "pms",
      "timezone",
      "region",
      "trial_ends_at",
      "created_at",
      "settings",
      "accent_color",
    ])
    .where("id", "=", orgId)
    .executeTakeFirst();
  if (!row) throw orgErrors.orgNotFound();
  const { settings, ...rest } = row;
  return {
    ...rest,
    role,
    audio_retention_days: audioRetentionDays(settings),
    coding_profile: codingProfile(settings),
    trial_ends_at: row.trial_ends_at ? new Date(row.trial_ends_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
