import { AppError } from "#app/utils/app-error.ts";

/** The organisation API's stable codes (docs/api.md "Organisations"). */
export const orgErrors = {
  // Another tenant's resource is a 404, never a 403 (CONVENTIONS "Services and data").
  orgNotFound: () => new AppError(404, "org_not_found", "Organization not found"),
  memberNotFound: () => new AppError(404, "member_not_found", "Member not found"),
  invitationNotFound: () => new AppError(404, "invitation_not_found", "Invitation not found"),
  forbiddenRole: (message = "Your role in this organization does not allow this") => new AppError(403, "forbidden_role", message),
  lastOwner: () => new AppError(409, "last_owner", "An organization must keep at least one owner"),
  invitationInvalid: () => new AppError(404, "invitation_invalid", "This invitation does not exist"),
  invitationExpired: () => new AppError(410, "invitation_expired", "This invitation has expired"),
  invitationRevoked: () => new AppError(410, "invitation_revoked", "This invitation has been revoked"),
  invitationUsed: () => new AppError(409, "invitation_used", "This invitation has already been used"),
  memberLimitReached: (max: number) =>
    new AppError(409, "member_limit_reached", `This plan allows ${max} member(s), counting pending invitations`),
  invitationEmailMismatch: () =>
    new AppError(403, "invitation_email_mismatch", "This invitation was sent to another email address"),
};

/** Postgres error fields the services read (pg and PGlite both expose them). */
function pgField(error: unknown, field: "code" | "hint"): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const value = (error as Record<string, unknown>)[field];
  return typeof value === "string" ? value : undefined;
}

/**
 * Database refusals that are a client's fault, as AppErrors: the last-owner trigger, the
 * accept_invitation() checks, and row-level security / privilege refusals (defence in depth:
 * the services check roles first, so these mean the database caught what a service missed).
 */
export function fromDatabaseError(error: unknown): unknown {
  const hint = pgField(error, "hint");
  const code = pgField(error, "code");
  if (code === "P0001") {
    switch (hint) {
      case "last_owner":
        return orgErrors.lastOwner();
      case "invitation_invalid":
        return orgErrors.invitationInvalid();
      case "invitation_used":
        return orgErrors.invitationUsed();
      case "invitation_revoked":
        return orgErrors.invitationRevoked();
      case "invitation_expired":
        return orgErrors.invitationExpired();
      case "invitation_email_mismatch":
        return orgErrors.invitationEmailMismatch();
    }
  }
  if (code === "42501") return orgErrors.forbiddenRole();
  return error;
}
