import { CHUNK_KEY_NAME } from "./constants.ts";
import { KeyExistsError, type RecorderStorage } from "./storage-port.ts";

export interface CryptoDeps {
  subtle: SubtleCrypto;
  randomBytes(length: number): Uint8Array<ArrayBuffer>;
}

const GCM_IV_BYTES = 12;
const encoder = new TextEncoder();

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (const byte of view) out += byte.toString(16).padStart(2, "0");
  return out;
}

export async function sha256Hex(subtle: SubtleCrypto, data: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await subtle.digest("SHA-256", data));
}

/**
 * The browser profile's chunk key: AES-GCM 256, non-extractable, generated once and kept as a CryptoKey
 * in IndexedDB (CryptoKeys are structured-cloneable; a non-extractable one cannot be read back out by
 * script). Two tabs may race to create it: "add" lets only the first win and the loser reads the winner's
 * key, so no chunk is ever encrypted under a key that is then overwritten.
 */
export async function getOrCreateChunkKey(storage: RecorderStorage, subtle: SubtleCrypto): Promise<CryptoKey> {
  const existing = await storage.get("keys", CHUNK_KEY_NAME);
  if (existing) return existing as CryptoKey;
  const key = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  try {
    await storage.commit([{ type: "add", store: "keys", key: CHUNK_KEY_NAME, value: key }]);
    return key;
  } catch (error) {
    if (!(error instanceof KeyExistsError)) throw error;
    return (await storage.get("keys", CHUNK_KEY_NAME)) as CryptoKey;
  }
}

/** Binds a ciphertext to its organisation, visit and position: a record moved elsewhere fails to decrypt. */
function additionalData(orgId: string, visitId: string, seq: number): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${orgId}/${visitId}/${seq}`);
}

export async function encryptChunk(
  deps: CryptoDeps,
  key: CryptoKey,
  where: { orgId: string; visitId: string; seq: number },
  plaintext: Uint8Array<ArrayBuffer>,
): Promise<{ bytes: ArrayBuffer; iv: Uint8Array<ArrayBuffer> }> {
  const iv = deps.randomBytes(GCM_IV_BYTES);
  const bytes = await deps.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(where.orgId, where.visitId, where.seq) },
    key,
    plaintext,
  );
  return { bytes, iv };
}

export async function decryptChunk(
  subtle: SubtleCrypto,
  key: CryptoKey,
  record: { orgId: string; visitId: string; seq: number; iv: Uint8Array; bytes: ArrayBuffer },
): Promise<Uint8Array<ArrayBuffer>> {
  const iv = new Uint8Array(record.iv);
  const plain = await subtle.decrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(record.orgId, record.visitId, record.seq) },
    key,
    record.bytes,
  );
  return new Uint8Array(plain);
}
