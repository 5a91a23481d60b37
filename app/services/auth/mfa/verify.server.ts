import { sql } from "kysely";
import { z } from "zod";
import { openSecret } from "#app/services/secrets/envelope.server.ts";
import type { AuthCall } from "../api/http.server.ts";
import { json, readBody } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import type { SignedInCaller } from "../bearer.server.ts";
import { codeHashes } from "../code-hash.server.ts";
import { safeEqual } from "../crypto.server.ts";
import { errors, mfaErrors } from "../errors.server.ts";
import { issueTokens } from "../sessions.server.ts";
import { findUserById } from "../users.server.ts";
import { isUuid } from "../uuid.server.ts";
import { type ChallengeRecord, claimTotpStep, type FactorRecord, findOwnFactor, usableChallenge } from "./factors.server.ts";
import { stepUpSession } from "./session-aal.server.ts";
import { totpStep } from "./totp.server.ts";

const VerifyBody = z.object({ challenge_id: z.string().max(64), code: z.string().max(64).nullish() });

/**
 * POST /factors/:id/verify: a correct code verifies the factor (the first time) and raises the
 * caller's session to aal2; the answer is a new session, which supabase-js stores.
 */
export async function verifyFactor(call: AuthCall, caller: SignedInCaller): Promise<Response> {
  const body = await readBody(call, VerifyBody);
  const code = body.code?.trim() ?? "";
  if (!code) throw errors.validation("Code needs to be non-empty");
  if (!isUuid(body.challenge_id)) throw errors.validation("challenge_id must be an UUID");
  const db = call.auth.db.kysely;
  const factor = await findOwnFactor(db, caller.user.id, call.params.id ?? "");
  const challenge = await usableChallenge(db, factor, body.challenge_id, call.ip);

  if (!(await codeAccepted(call, factor, challenge, code))) {
    await recordAuthEvent(call.auth, {
      action: "mfa_verification_failed",
      actorId: caller.user.id,
      ip: call.ip,
      payload: { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factor_type },
    });
    throw factor.factor_type === "totp" ? errors.mfaVerificationFailed() : mfaErrors.phoneVerificationFailed();
  }

  const stepped = await db.transaction().execute(async (trx) => {
    // One use per challenge, even when two requests with the right code arrive together.
    const used = await sql`update auth.mfa_challenges set verified_at = now()
                           where id = ${challenge.id} and verified_at is null`.execute(trx);
    if (Number(used.numAffectedRows ?? 0) !== 1) throw mfaErrors.ipAddressMismatch();
    if (factor.status !== "verified") {
      await sql`update auth.mfa_factors set status = 'verified', updated_at = now() where id = ${factor.id}`.execute(trx);
      // As GoTrue: other unfinished enrolments of the same type are dropped once one succeeds.
      await sql`delete from auth.mfa_factors
                where user_id = ${factor.user_id} and factor_type = ${factor.factor_type} and status = 'unverified'`.execute(trx);
    }
    return stepUpSession(trx, caller.session, factor);
  });
  await recordAuthEvent(call.auth, {
    action: "mfa_verified",
    actorId: caller.user.id,
    ip: call.ip,
    payload: { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factor_type },
  });
  const user = (await findUserById(db, caller.user.id)) ?? caller.user;
  return json(await issueTokens(call.auth, user, stepped.session, stepped.parentHash));
}

async function codeAccepted(call: AuthCall, factor: FactorRecord, challenge: ChallengeRecord, code: string): Promise<boolean> {
  if (factor.factor_type === "phone") {
    const stored = challenge.otp_code_hash;
    return stored !== null && codeHashes(call.auth.secrets, code).some((hash) => safeEqual(hash, stored));
  }
  const step = factor.secret ? totpStep(openSecret(call.auth.secrets, factor.secret), code) : null;
  // A code is good for one use: its time step must be later than the last accepted one.
  return step !== null && (await claimTotpStep(call.auth.db.kysely, factor.id, step));
}
