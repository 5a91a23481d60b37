import { errors } from "./errors.server.ts";

export interface PkceChallenge {
  challenge: string;
  method: "s256" | "plain";
}

const CHALLENGE = /^[a-zA-Z0-9._~-]{43,128}$/;

/**
 * The PKCE challenge a client sent when starting an email flow, checked as GoTrue does
 * (RFC 7636 §4.2); null when the client uses the implicit flow.
 */
export function readPkceChallenge(challenge: string | null | undefined, method: string | null | undefined): PkceChallenge | null {
  if (!challenge && !method) return null;
  if (!challenge || !method) throw errors.validation("PKCE flow requires code_challenge_method and code_challenge");
  if (challenge.length < 43 || challenge.length > 128) {
    throw errors.validation("code challenge has to be between 43 and 128 characters");
  }
  if (!CHALLENGE.test(challenge)) {
    throw errors.validation("code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes");
  }
  const normalized = method.toLowerCase();
  if (normalized !== "s256" && normalized !== "plain") {
    throw errors.validation(`code challenge method not supported: ${method}`);
  }
  return { challenge, method: normalized };
}
