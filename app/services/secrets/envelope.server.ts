// Envelope encryption for small secrets stored in the database (TOTP seeds): each value gets its
// own random data key (AES-256-GCM), and that data key is wrapped by a key-encryption key derived
// from the deployment's secret key. Rotating the secret key re-wraps the data keys only.
//
// Stored form: `enc:v1:<key id>:<wrapped data key>:<iv>:<ciphertext>` (base64url parts; each
// GCM output carries its 16-byte tag at the end).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { allKeys, deriveKey, type SecretKey, type SecretKeys } from "./secret-keys.server.ts";

const PREFIX = "enc:v1:";
const PURPOSE = "envelope-kek";

export class EnvelopeError extends Error {}

function gcmSeal(key: Buffer, plaintext: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function gcmOpen(key: Buffer, sealed: Buffer): Buffer {
  const iv = sealed.subarray(0, 12);
  const tag = sealed.subarray(sealed.length - 16);
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
}

function wrapWith(kek: SecretKey, dataKey: Buffer, iv: Buffer, ciphertext: Buffer): string {
  const wrapped = gcmSeal(deriveKey(kek, PURPOSE), dataKey);
  return `${PREFIX}${kek.id}:${wrapped.toString("base64url")}:${iv.toString("base64url")}:${ciphertext.toString("base64url")}`;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function sealSecret(keys: SecretKeys, plaintext: string): string {
  const dataKey = randomBytes(32);
  const sealed = gcmSeal(dataKey, Buffer.from(plaintext, "utf8"));
  return wrapWith(keys.current, dataKey, sealed.subarray(0, 12), sealed.subarray(12));
}

function parts(stored: string): { keyId: string; wrapped: Buffer; iv: Buffer; ciphertext: Buffer } {
  const [keyId, wrapped, iv, ciphertext] = stored.slice(PREFIX.length).split(":");
  if (!keyId || !wrapped || !iv || !ciphertext) throw new EnvelopeError("malformed sealed value");
  return {
    keyId,
    wrapped: Buffer.from(wrapped, "base64url"),
    iv: Buffer.from(iv, "base64url"),
    ciphertext: Buffer.from(ciphertext, "base64url"),
  };
}

function unwrap(keys: SecretKeys, keyId: string, wrapped: Buffer): Buffer {
  const kek = allKeys(keys).find((k) => k.id === keyId);
  if (!kek) throw new EnvelopeError(`sealed with key ${keyId}, which is not configured (MURMUR_SECRET_KEY_PREVIOUS?)`);
  return gcmOpen(deriveKey(kek, PURPOSE), wrapped);
}

/** The plaintext of a sealed value; a value stored before encryption existed is returned as is. */
export function openSecret(keys: SecretKeys, stored: string): string {
  if (!isSealed(stored)) return stored;
  const p = parts(stored);
  const dataKey = unwrap(keys, p.keyId, p.wrapped);
  return gcmOpen(dataKey, Buffer.concat([p.iv, p.ciphertext])).toString("utf8");
}

/**
 * The value as it should be stored under the current key, or null when it already is: plaintext
 * gets sealed, a value wrapped by an older key gets its data key re-wrapped (ciphertext unchanged).
 */
export function resealed(keys: SecretKeys, stored: string): string | null {
  if (!isSealed(stored)) return sealSecret(keys, stored);
  const p = parts(stored);
  if (p.keyId === keys.current.id) return null;
  return wrapWith(keys.current, unwrap(keys, p.keyId, p.wrapped), p.iv, p.ciphertext);
}
