import { sql } from "kysely";
import { errors, mfaErrors } from "../errors.server.ts";
import { isUniqueViolation } from "../pg-errors.server.ts";
import { isUuid } from "../uuid.server.ts";
import { CHALLENGE_EXPIRY_SECONDS, UNVERIFIED_FACTOR_EXPIRY_SECONDS } from "./limits.server.ts";

type Executor = Parameters<ReturnType<typeof sql>["execute"]>[0];

export interface FactorRecord {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: "totp" | "phone";
  status: "unverified" | "verified";
  /** Base32 TOTP secret; null for phone factors. */
  secret: string | null;
  /** Digits only, without "+"; null for TOTP factors. */
  phone: string | null;
  created_at: Date;
}

export interface ChallengeRecord {
  id: string;
  factor_id: string;
  ip: string | null;
  otp_code_hash: string | null;
  created_at: Date;
  verified_at: Date | null;
}

/** The caller's own factor; anyone else's is "not found", so factor ids cannot be probed. */
export async function findOwnFactor(db: Executor, userId: string, factorId: string): Promise<FactorRecord> {
  if (!isUuid(factorId)) throw errors.mfaFactorNotFound();
  const { rows } = await sql<FactorRecord>`
    select * from auth.mfa_factors where id = ${factorId} and user_id = ${userId}`.execute(db);
  const factor = rows[0];
  if (!factor) throw errors.mfaFactorNotFound();
  return factor;
}

export async function listFactors(db: Executor, userId: string): Promise<FactorRecord[]> {
  const { rows } = await sql<FactorRecord>`
    select * from auth.mfa_factors where user_id = ${userId} order by created_at`.execute(db);
  return rows;
}

/** As GoTrue: enrolments never challenged within the expiry are abandoned; drop them. */
export async function deleteAbandonedFactors(db: Executor, userId: string): Promise<void> {
  await sql`delete from auth.mfa_factors f
            where f.user_id = ${userId} and f.status = 'unverified'
              and f.created_at < now() - make_interval(secs => ${UNVERIFIED_FACTOR_EXPIRY_SECONDS})
              and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)`.execute(db);
}

export async function insertFactor(
  db: Executor,
  factor: { userId: string; type: "totp" | "phone"; friendlyName: string | null; secret?: string; phone?: string },
): Promise<FactorRecord> {
  try {
    const { rows } = await sql<FactorRecord>`
      insert into auth.mfa_factors (user_id, friendly_name, factor_type, secret, phone)
      values (${factor.userId}, ${factor.friendlyName}, ${factor.type}, ${factor.secret ?? null}, ${factor.phone ?? null})
      returning *`.execute(db);
    return rows[0] as FactorRecord;
  } catch (error) {
    // Two enrolments racing past the name check: the unique index settles it.
    if (isUniqueViolation(error)) throw errors.mfaNameConflict(factor.friendlyName ?? "");
    throw error;
  }
}

export async function deleteFactor(db: Executor, factorId: string): Promise<void> {
  await sql`delete from auth.mfa_factors where id = ${factorId}`.execute(db);
}

export async function insertChallenge(
  db: Executor,
  challenge: { factorId: string; ip: string; otpCodeHash?: string },
): Promise<ChallengeRecord> {
  const { rows } = await sql<ChallengeRecord>`
    insert into auth.mfa_challenges (factor_id, ip, otp_code_hash)
    values (${challenge.factorId}, ${challenge.ip}, ${challenge.otpCodeHash ?? null})
    returning *`.execute(db);
  return rows[0] as ChallengeRecord;
}

/** When the factor was last challenged, to space out SMS. */
export async function lastChallengedAt(db: Executor, factorId: string): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    select max(created_at) as at from auth.mfa_challenges where factor_id = ${factorId}`.execute(db);
  return rows[0]?.at ?? null;
}

export function challengeExpiresAt(challenge: ChallengeRecord): number {
  return Math.floor(new Date(challenge.created_at).getTime() / 1000) + CHALLENGE_EXPIRY_SECONDS;
}

/**
 * The challenge being answered, checked as GoTrue checks it: it belongs to this factor, is
 * answered from the address that asked for it, has not been used, and has not expired (an
 * expired one is deleted).
 */
export async function usableChallenge(
  db: Executor,
  factor: FactorRecord,
  challengeId: string,
  ip: string,
): Promise<ChallengeRecord> {
  const { rows } = await sql<ChallengeRecord>`
    select * from auth.mfa_challenges where id = ${challengeId} and factor_id = ${factor.id}`.execute(db);
  const challenge = rows[0];
  if (!challenge) throw mfaErrors.challengeNotFound();
  if (challenge.verified_at || challenge.ip !== ip) throw mfaErrors.ipAddressMismatch();
  if (challengeExpiresAt(challenge) * 1000 < Date.now()) {
    await sql`delete from auth.mfa_challenges where id = ${challenge.id}`.execute(db);
    throw errors.mfaChallengeExpired();
  }
  return challenge;
}

/**
 * Records `step` as the factor's latest used TOTP step unless an equal or later one was used
 * already; false means the code is a replay (including a concurrent request with the same code).
 */
export async function claimTotpStep(db: Executor, factorId: string, step: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    update auth.mfa_factors set last_used_step = ${step}, updated_at = now()
    where id = ${factorId} and (last_used_step is null or last_used_step < ${step})
    returning id`.execute(db);
  return rows.length === 1;
}
