import { z } from "zod";
import { sealSecret } from "#app/services/secrets/envelope.server.ts";
import type { AuthCall } from "../api/http.server.ts";
import { json, readBody } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import type { SignedInCaller } from "../bearer.server.ts";
import { errors, mfaErrors } from "../errors.server.ts";
import { deleteAbandonedFactors, deleteFactor, type FactorRecord, insertFactor, listFactors } from "./factors.server.ts";
import { MAX_FACTORS_PER_USER } from "./limits.server.ts";
import { normalizePhone } from "./phone.server.ts";
import { newTotpEnrollment } from "./totp.server.ts";

const EnrollBody = z.object({
  factor_type: z.unknown(),
  friendly_name: z.string().max(256).nullish(),
  issuer: z.string().max(256).nullish(),
  phone: z.string().max(64).nullish(),
});

/** POST /factors: starts enrolling a TOTP app or a phone; the factor counts once verified. */
export async function enrollFactor(call: AuthCall, caller: SignedInCaller): Promise<Response> {
  const body = await readBody(call, EnrollBody);
  const friendlyName = body.friendly_name?.trim() || null;
  switch (body.factor_type) {
    case "totp":
      return enrollTotp(call, caller, friendlyName, body.issuer?.trim() || new URL(call.auth.config.siteUrl).host);
    case "phone":
      return enrollPhone(call, caller, friendlyName, body.phone ?? "");
    case "webauthn":
      throw mfaErrors.webauthnUnsupported();
    default:
      throw errors.validation("factor_type needs to be totp, phone, or webauthn");
  }
}

async function enrollTotp(call: AuthCall, caller: SignedInCaller, friendlyName: string | null, issuer: string) {
  const db = call.auth.db.kysely;
  await checkFactorBudget(call, caller, friendlyName);
  const { user } = caller;
  const enrollment = await newTotpEnrollment(issuer, user.email || user.phone || user.id);
  const factor = await insertFactor(db, {
    userId: user.id,
    type: "totp",
    friendlyName,
    secret: sealSecret(call.auth.secrets, enrollment.secret),
  });
  await recordEnrolled(call, caller, factor);
  return json({
    id: factor.id,
    type: "totp",
    friendly_name: factor.friendly_name ?? "",
    totp: { qr_code: enrollment.qrCode, secret: enrollment.secret, uri: enrollment.uri },
  });
}

async function enrollPhone(call: AuthCall, caller: SignedInCaller, friendlyName: string | null, rawPhone: string) {
  if (!rawPhone.trim()) throw errors.validation("Phone number required to enroll Phone factor");
  const phone = normalizePhone(rawPhone);
  if (!phone) throw errors.validation("Invalid phone number format (E.164 required)");
  const db = call.auth.db.kysely;
  const samePhone = (await listFactors(db, caller.user.id)).filter((f) => f.factor_type === "phone" && f.phone === phone);
  if (samePhone.some((f) => f.status === "verified")) throw mfaErrors.verifiedPhoneExists();
  // Re-enrolling a number that was never verified replaces the earlier attempt.
  for (const stale of samePhone) await deleteFactor(db, stale.id);
  await checkFactorBudget(call, caller, friendlyName);
  const factor = await insertFactor(db, { userId: caller.user.id, type: "phone", friendlyName, phone });
  await recordEnrolled(call, caller, factor);
  return json({ id: factor.id, type: "phone", friendly_name: factor.friendly_name ?? "", phone: rawPhone });
}

/** GoTrue's validateFactors: unique names, at most 10 factors, and aal2 to add one once MFA is on. */
async function checkFactorBudget(call: AuthCall, caller: SignedInCaller, friendlyName: string | null): Promise<void> {
  const db = call.auth.db.kysely;
  await deleteAbandonedFactors(db, caller.user.id);
  const factors = await listFactors(db, caller.user.id);
  if (friendlyName && factors.some((f) => f.friendly_name === friendlyName)) throw errors.mfaNameConflict(friendlyName);
  const verified = factors.filter((f) => f.status === "verified").length;
  if (factors.length >= MAX_FACTORS_PER_USER || verified >= MAX_FACTORS_PER_USER) throw mfaErrors.tooManyFactors();
  if (verified > 0 && caller.session.aal !== "aal2") throw mfaErrors.aalRequiredToEnroll();
}

function recordEnrolled(call: AuthCall, caller: SignedInCaller, factor: FactorRecord): Promise<void> {
  return recordAuthEvent(call.auth, {
    action: "mfa_factor_enrolled",
    actorId: caller.user.id,
    ip: call.ip,
    payload: { factor_id: factor.id, factor_type: factor.factor_type },
  });
}
