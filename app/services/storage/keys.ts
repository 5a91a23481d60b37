// Blob keys are namespaced by organisation (issue 5 "Storage"), so a listing, a purge or a bucket
// policy can work per tenant, and a key alone says whose audio it is.

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Throws on anything that could escape its namespace (`..`, empty or odd segments). */
export function assertBlobKey(key: string): void {
  const parts = key.split("/");
  if (parts.length < 2 || parts.length > 12 || !parts.every((p) => SEGMENT.test(p) && p !== "." && p !== "..")) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
}

export function visitPrefix(orgId: string, visitId: string): string {
  return `orgs/${orgId}/visits/${visitId}`;
}

export function chunkKey(orgId: string, visitId: string, seq: number): string {
  return `${visitPrefix(orgId, visitId)}/chunks/${seq}`;
}

/**
 * The assembled recording or the uploaded file, keyed by its SHA-256: a concurrent finish or a
 * later upload never overwrites the bytes a visit row points at.
 */
export function audioKey(orgId: string, visitId: string, sha256: string): string {
  return `${visitPrefix(orgId, visitId)}/audio/${sha256}`;
}
