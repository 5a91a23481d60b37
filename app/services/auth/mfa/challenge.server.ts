import { z } from "zod";
import type { AuthCall } from "../api/http.server.ts";
import { json, readBody } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import type { SignedInCaller } from "../bearer.server.ts";
import { codeHash } from "../code-hash.server.ts";
import { randomDigits } from "../crypto.server.ts";
import { errors, mfaErrors } from "../errors.server.ts";
import { emailLocale, sendAuthSms } from "../mailer.server.ts";
import { challengeExpiresAt, findOwnFactor, insertChallenge, lastChallengedAt } from "./factors.server.ts";
import { SMS_MIN_INTERVAL_SECONDS } from "./limits.server.ts";

// supabase-js also sends `factorId`; unknown keys are ignored as GoTrue ignores them.
const ChallengeBody = z.object({ channel: z.string().max(32).nullish() });

/** POST /factors/:id/challenge: TOTP just needs a challenge id; a phone factor also gets an SMS code. */
export async function challengeFactor(call: AuthCall, caller: SignedInCaller): Promise<Response> {
  const body = await readBody(call, ChallengeBody);
  const db = call.auth.db.kysely;
  const factor = await findOwnFactor(db, caller.user.id, call.params.id ?? "");
  let code: string | null = null;
  if (factor.factor_type === "phone") {
    const channel = body.channel || "sms";
    if (channel !== "sms") throw errors.validation("Invalid channel, the only supported value is 'sms'");
    const last = await lastChallengedAt(db, factor.id);
    const waitMs = last ? new Date(last).getTime() + SMS_MIN_INTERVAL_SECONDS * 1000 - Date.now() : 0;
    if (waitMs > 0) throw mfaErrors.smsRateLimited(Math.ceil(waitMs / 1000));
    code = randomDigits(6);
  }
  const challenge = await insertChallenge(db, {
    factorId: factor.id,
    ip: call.ip,
    otpCodeHash: code ? codeHash(call.auth.secrets.current, code) : undefined,
  });
  if (code) {
    const locale = emailLocale(caller.user.raw_user_meta_data.locale, call.request.headers.get("accept-language"));
    await sendAuthSms(call.auth, { kind: "mfa", to: `+${factor.phone}`, locale, code });
  }
  await recordAuthEvent(call.auth, {
    action: "mfa_challenge_created",
    actorId: caller.user.id,
    ip: call.ip,
    payload: { factor_id: factor.id, factor_status: factor.status },
  });
  return json({ id: challenge.id, type: factor.factor_type, expires_at: challengeExpiresAt(challenge) });
}
