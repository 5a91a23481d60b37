import type { ColumnType, Generated } from "kysely";

/**
 * Kysely's view of the tables. Each migration that adds a table adds its interface here.
 * Only tables read through Kysely need to appear.
 */
export interface DB {
  schema_migrations: { name: string; applied_at: Date };
  organizations: OrganizationsTable;
  org_members: OrgMembersTable;
  invitations: InvitationsTable;
  audit_log: AuditLogTable;
}

/** A column the database fills in on insert (default) and that may be set explicitly. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** Written once on insert, never updated. */
type InsertOnly<T> = ColumnType<T, T, never>;

// ---- 0003_organizations.sql (SPEC §3, issue 4) ----

export const ORG_KINDS = ["personal", "practice"] as const;
export type OrgKind = (typeof ORG_KINDS)[number];
/** SPEC §3: `Clinic` is the special plan value, spelled with its capital. */
export const ORG_PLANS = ["trial", "solo", "practice", "Clinic"] as const;
export type OrgPlan = (typeof ORG_PLANS)[number];
/** SPEC §3: `macpractice` is the special PMS value. */
export const ORG_PMS = ["none", "macpractice", "opendental", "dentrix", "eaglesoft", "other"] as const;
export type OrgPms = (typeof ORG_PMS)[number];
export const ORG_ROLES = ["owner", "admin", "clinician", "staff"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Rows are created by ensure_personal_org() / create_organization() only (no INSERT for murmur_app). */
export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  slug: string;
  kind: InsertOnly<OrgKind>;
  plan: Defaulted<OrgPlan>;
  pms: Defaulted<OrgPms>;
  created_by: InsertOnly<string | null>;
  timezone: Defaulted<string>;
  region: Defaulted<string>;
  trial_ends_at: Date | null;
  settings: Defaulted<Record<string, unknown>>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

export interface OrgMembersTable {
  org_id: string;
  user_id: string;
  role: OrgRole;
  created_at: ColumnType<Date, never, never>;
}

export interface InvitationsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  email: string;
  role: OrgRole;
  token_hash: string;
  expires_at: Defaulted<Date>;
  accepted_at: Date | null;
  accepted_by: string | null;
  revoked_at: Date | null;
  invited_by: string | null;
  created_at: ColumnType<Date, never, never>;
}

/** Append-only: murmur_app may only SELECT and INSERT; a trigger rejects UPDATE/DELETE for everyone. */
export interface AuditLogTable {
  id: ColumnType<string, never, never>;
  org_id: InsertOnly<string>;
  actor_id: InsertOnly<string | null>;
  action: InsertOnly<string>;
  entity: InsertOnly<string | null>;
  entity_id: InsertOnly<string | null>;
  at: ColumnType<Date, Date | undefined, never>;
  ip: InsertOnly<string | null>;
  user_agent: InsertOnly<string | null>;
  details: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, never>;
}
