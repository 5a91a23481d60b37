import { type ActorTransaction, withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import { ORG_ROLES, type OrgRole } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { fromDatabaseError, orgErrors } from "./errors.server.ts";

/** Where a mutation came from, for the audit log. */
export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/** What every organisation service takes: the database and the signed-in actor, both from the server side. */
export interface OrgServiceArgs {
  db: Database;
  actor: { userId: string };
  meta?: RequestMeta;
}

/**
 * Runs `fn` as the actor under row-level security (withActor) and turns the database's refusals
 * into AppErrors. `orgId` is the organisation the call is about (from the URL), or null.
 */
export async function asActor<T>(
  args: OrgServiceArgs,
  orgId: string | null,
  fn: (trx: ActorTransaction) => Promise<T>,
): Promise<T> {
  try {
    return await withActor(args.db, { userId: args.actor.userId, orgId }, fn);
  } catch (error) {
    throw fromDatabaseError(error);
  }
}

/** A malformed id names nothing: the same 404 as another tenant's organisation, never a database error. */
export function checkOrgId(orgId: string): void {
  if (!isUuid(orgId)) throw orgErrors.orgNotFound();
}

/** The actor's role in `orgId`; a non-member (or an unknown organisation) is 404 org_not_found. */
export async function requireMemberRole(trx: ActorTransaction, orgId: string, userId: string): Promise<OrgRole> {
  const row = await trx
    .selectFrom("org_members")
    .select("role")
    .where("org_id", "=", orgId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw orgErrors.orgNotFound();
  return row.role;
}

/** docs/permissions.md: who may manage an organisation's settings, members and invitations. */
export const MANAGER_ROLES: readonly OrgRole[] = ["owner", "admin"];

export function requireRole(role: OrgRole, allowed: readonly OrgRole[]): void {
  if (!allowed.includes(role)) throw orgErrors.forbiddenRole();
}

/** Owners may grant any role; admins every role but owner (no escalation past their own rank). */
export function canGrantRole(actorRole: OrgRole, role: OrgRole): boolean {
  if (actorRole === "owner") return true;
  return actorRole === "admin" && role !== "owner";
}

export function isOrgRole(value: unknown): value is OrgRole {
  return typeof value === "string" && (ORG_ROLES as readonly string[]).includes(value);
}
