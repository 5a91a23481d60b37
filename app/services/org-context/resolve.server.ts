import type { Database } from "#app/db/database.server.ts";
import type { Locale } from "#app/i18n/config.ts";
import { asActor, type RequestMeta } from "#app/services/orgs/context.server.ts";
import { ensurePersonalOrg } from "#app/services/orgs/orgs.server.ts";
import { type BootstrapResult, bootstrapOrgs } from "./bootstrap.ts";
import type { MemberOrg } from "./current-org.ts";

export interface ResolveArgs {
  db: Database;
  userId: string;
  locale: Locale;
  /** In order: an organisation the URL asks for (deep link), then the cookie's. */
  preferred: readonly (string | null)[];
  timeoutMs: number;
  meta?: RequestMeta;
  log?(message: string, error: unknown): void;
}

/** The user's organisations with role, oldest first; one query under row-level security. */
export function loadMemberOrgs(db: Database, userId: string): Promise<MemberOrg[]> {
  return asActor({ db, actor: { userId } }, null, async (trx) => {
    const rows = await trx
      .selectFrom("organizations as o")
      .innerJoin("org_members as m", "m.org_id", "o.id")
      .select([
        "o.id",
        "o.name",
        "o.slug",
        "o.kind",
        "o.plan",
        "o.pms",
        "o.timezone",
        "o.region",
        "o.trial_ends_at",
        "o.accent_color",
        "m.role",
      ])
      .where("m.user_id", "=", userId)
      .orderBy("o.created_at")
      .orderBy("o.id")
      .execute();
    return rows.map((row) => ({ ...row, trial_ends_at: row.trial_ends_at ? new Date(row.trial_ends_at).toISOString() : null }));
  });
}

/** SPEC §4 bootstrap against the database: the server's answer to "which organisation is this request in". */
export function resolveCurrentOrg(args: ResolveArgs): Promise<BootstrapResult<MemberOrg>> {
  return bootstrapOrgs(
    {
      loadOrgs: () => loadMemberOrgs(args.db, args.userId),
      ensurePersonal: async () =>
        (await ensurePersonalOrg({ db: args.db, actor: { userId: args.userId }, locale: args.locale, meta: args.meta })).id,
      timeoutMs: args.timeoutMs,
      log: args.log,
    },
    args.preferred,
  );
}
