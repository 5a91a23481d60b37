/**
 * An error answered the way GoTrue answers it, so supabase-js turns it into the same AuthApiError:
 * the status, a stable `code` (GoTrue's error codes), and the message GoTrue uses.
 */
export class AuthApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

/** The API version supabase-js reads to trust `code` as the error code (2024-01-01 format). */
export const API_VERSION = "2024-01-01";

export function errorResponse(error: AuthApiError): Response {
  return Response.json(
    { code: error.code, error_code: error.code, msg: error.message, message: error.message, ...error.extra },
    { status: error.status, headers: { "X-Supabase-Api-Version": API_VERSION, "Cache-Control": "no-store" } },
  );
}

export const errors = {
  badJson: () => new AuthApiError(400, "bad_json", "Could not parse request body as JSON"),
  validation: (message: string) => new AuthApiError(400, "validation_failed", message),
  invalidCredentials: () => new AuthApiError(400, "invalid_credentials", "Invalid login credentials"),
  emailNotConfirmed: () => new AuthApiError(400, "email_not_confirmed", "Email not confirmed"),
  userAlreadyExists: () => new AuthApiError(422, "user_already_exists", "User already registered"),
  emailExists: () => new AuthApiError(422, "email_exists", "A user with this email address has already been registered"),
  weakPassword: (reasons: string[], message: string) =>
    new AuthApiError(422, "weak_password", message, { weak_password: { reasons } }),
  samePassword: () => new AuthApiError(422, "same_password", "New password should be different from the old password."),
  noAuthorization: () => new AuthApiError(401, "no_authorization", "This endpoint requires a valid Bearer token"),
  badJwt: (detail = "invalid JWT") =>
    new AuthApiError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${detail}`),
  notAdmin: () => new AuthApiError(403, "not_admin", "User not allowed"),
  sessionNotFound: () => new AuthApiError(403, "session_not_found", "Session from session_id claim in JWT does not exist"),
  userNotFound: () => new AuthApiError(404, "user_not_found", "User not found"),
  refreshTokenNotFound: () => new AuthApiError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"),
  refreshTokenAlreadyUsed: () => new AuthApiError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used"),
  otpExpired: () => new AuthApiError(403, "otp_expired", "Token has expired or is invalid"),
  flowStateNotFound: () => new AuthApiError(404, "flow_state_not_found", "invalid flow state, no valid flow state found"),
  flowStateExpired: () => new AuthApiError(400, "flow_state_expired", "invalid flow state, flow state has expired"),
  badCodeVerifier: () =>
    new AuthApiError(400, "bad_code_verifier", "code challenge does not match previously saved code verifier"),
  providerDisabled: (provider: string) =>
    new AuthApiError(400, "provider_disabled", `Unsupported provider: provider ${provider} is not enabled`),
  signupDisabled: () => new AuthApiError(422, "signup_disabled", "Signups not allowed for this instance"),
  rateLimited: () => new AuthApiError(429, "over_request_rate_limit", "Request rate limit reached"),
  emailRateLimited: () => new AuthApiError(429, "over_email_send_rate_limit", "Email rate limit exceeded"),
  invalidEmail: (email: string) => new AuthApiError(400, "email_address_invalid", `Email address "${email}" is invalid`),
  reauthNonceMissing: () => new AuthApiError(400, "reauthentication_needed", "Password update requires reauthentication"),
  reauthNotValid: () => new AuthApiError(400, "reauthentication_not_valid", "Verification code is invalid"),
  mfaFactorNotFound: () => new AuthApiError(404, "mfa_factor_not_found", "Factor not found"),
  mfaVerificationFailed: () => new AuthApiError(422, "mfa_verification_failed", "Invalid TOTP code entered"),
  mfaChallengeExpired: () =>
    new AuthApiError(
      422,
      "mfa_challenge_expired",
      "MFA challenge has expired, verify against another challenge or create a new challenge.",
    ),
  mfaNameConflict: (name: string) =>
    new AuthApiError(422, "mfa_factor_name_conflict", `A factor with the friendly name "${name}" for this user already exists`),
  insufficientAal: () => new AuthApiError(403, "insufficient_aal", "AAL2 required"),
  notFound: () => new AuthApiError(404, "not_found", "Not Found"),
  methodNotAllowed: () => new AuthApiError(405, "method_not_allowed", "Method Not Allowed"),
  payloadTooLarge: () => new AuthApiError(413, "request_too_large", "Request body too large"),
};

/** Bearer-token errors beyond the basics above, worded as GoTrue's requireAuthentication. */
export const bearerErrors = {
  missingSub: () => new AuthApiError(403, "bad_jwt", "invalid claim: missing sub claim"),
  userFromSubMissing: () => new AuthApiError(403, "user_not_found", "User from sub claim in JWT does not exist"),
};

/** MFA errors with GoTrue's codes, statuses and messages (internal/api/mfa.go). */
export const mfaErrors = {
  tooManyFactors: () =>
    new AuthApiError(422, "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue"),
  verifiedPhoneExists: () =>
    new AuthApiError(
      422,
      "mfa_verified_factor_exists",
      "A verified phone factor already exists, unenroll the existing factor to continue",
    ),
  aalRequiredToEnroll: () => new AuthApiError(403, "insufficient_aal", "AAL2 required to enroll a new factor"),
  aalRequiredToUnenroll: () => new AuthApiError(422, "insufficient_aal", "AAL2 required to unenroll verified factor"),
  webauthnUnsupported: () => new AuthApiError(422, "mfa_webauthn_enroll_disabled", "MFA enroll is disabled for WebAuthn"),
  challengeNotFound: () => new AuthApiError(422, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found"),
  ipAddressMismatch: () => new AuthApiError(422, "mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch."),
  phoneVerificationFailed: () => new AuthApiError(422, "mfa_verification_failed", "Invalid MFA Phone code entered"),
  smsRateLimited: (seconds: number) =>
    new AuthApiError(
      429,
      "over_sms_send_rate_limit",
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
};

/** Admin API errors with GoTrue's codes and messages (internal/api/admin.go). */
export const adminErrors = {
  userIdNotUuid: () => new AuthApiError(400, "validation_failed", "user_id must be an UUID"),
  factorIdNotUuid: () => new AuthApiError(400, "validation_failed", "factor_id must be an UUID"),
  emailOrPhoneRequired: () => new AuthApiError(400, "validation_failed", "Cannot create a user without either an email or phone"),
  invalidPhoneFormat: () => new AuthApiError(400, "validation_failed", "Invalid phone number format (E.164 required)"),
  phoneExists: () => new AuthApiError(422, "phone_exists", "Phone number already registered by another user"),
  badPagination: (detail: string) => new AuthApiError(400, "validation_failed", `Bad Pagination Parameters: ${detail}`),
  badSort: () => new AuthApiError(400, "validation_failed", "Bad Sort Parameters: only created_at asc|desc is supported"),
  badBanDuration: () =>
    new AuthApiError(400, "validation_failed", "invalid format for ban duration: use a duration like 24h, 30m or none"),
};

/** Sign-up, token, email-link and user errors beyond the basics above, worded as GoTrue's handlers. */
export const coreErrors = {
  userBanned: (status: 400 | 403 = 400) => new AuthApiError(status, "user_banned", "User is banned"),
  refreshUserBanned: () => new AuthApiError(400, "user_banned", "Invalid Refresh Token: User Banned"),
  sessionExpired: () => new AuthApiError(400, "session_expired", "Invalid Refresh Token: Session Expired"),
  unsupportedGrantType: () => new AuthApiError(400, "invalid_credentials", "unsupported_grant_type"),
  otpDisabled: () => new AuthApiError(422, "otp_disabled", "Signups not allowed for otp"),
  phoneProviderDisabled: () => new AuthApiError(400, "phone_provider_disabled", "Unsupported phone provider"),
  emailLinkExpired: () => new AuthApiError(403, "otp_expired", "Email link is invalid or has expired"),
  verifyEmailFirst: () => new AuthApiError(422, "email_not_confirmed", "Please verify your email first."),
  aal2RequiredForUpdate: () =>
    new AuthApiError(401, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled."),
  appMetadataNotAllowed: () => new AuthApiError(403, "not_admin", "Updating app_metadata requires admin privileges"),
};
