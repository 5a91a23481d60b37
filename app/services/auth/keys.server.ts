import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import { randomToken } from "./crypto.server.ts";

export interface AuthKeys {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The browser-safe key (role anon), like Supabase's anon key. */
  anonKey: string;
  /** Full admin access to the auth API (role service_role). Server-side only. */
  serviceRoleKey: string;
  /**
   * HMAC key that derives each rotated refresh token from its parent (refresh.server.ts), so a
   * just-rotated token presented again can be answered with the session's current one although
   * only hashes are stored. Server-side only, never shown.
   */
  refreshTokenSecret: string;
}

const KEY_LOCK = 4_242_002;
const API_KEY_LIFETIME_S = 10 * 365 * 24 * 3600;

/**
 * Loads the ES256 signing key and the anon / service-role API keys, generating them on first
 * start (under a lock, so two instances starting together agree). `created` is true only for the
 * instance that generated them, which prints them once.
 */
export async function ensureAuthKeys(db: Database, issuer: string): Promise<{ keys: AuthKeys; created: boolean }> {
  return db.kysely.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${KEY_LOCK})`.execute(trx);
    let created = false;
    let row = (
      await sql<{ kid: string; private_jwk: JWK; public_jwk: JWK }>`
        select kid, private_jwk, public_jwk from auth.keys where active order by created_at desc limit 1`.execute(trx)
    ).rows[0];
    if (!row) {
      const pair = await generateKeyPair("ES256", { extractable: true });
      const privateJwk = await exportJWK(pair.privateKey);
      const publicJwk = await exportJWK(pair.publicKey);
      const kid = await calculateJwkThumbprint(publicJwk);
      await sql`insert into auth.keys (kid, algorithm, private_jwk, public_jwk)
                values (${kid}, 'ES256', ${JSON.stringify(privateJwk)}::jsonb, ${JSON.stringify(publicJwk)}::jsonb)`.execute(trx);
      row = { kid, private_jwk: privateJwk, public_jwk: publicJwk };
      created = true;
    }
    const privateKey = (await importJWK(row.private_jwk, "ES256")) as CryptoKey;
    const publicJwk: JWK = { ...row.public_jwk, kid: row.kid, alg: "ES256", use: "sig", key_ops: ["verify"] };

    const stored = new Map(
      (
        await sql<{
          key: string;
          value: string;
        }>`select key, value from auth.config where key in ('anon_key', 'service_role_key', 'refresh_token_secret')`.execute(trx)
      ).rows.map((r) => [r.key, r.value]),
    );
    for (const role of ["anon", "service_role"] as const) {
      const name = `${role}_key`;
      if (stored.has(name)) continue;
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ role })
        .setProtectedHeader({ alg: "ES256", kid: row.kid, typ: "JWT" })
        .setIssuer(issuer)
        .setIssuedAt(now)
        .setExpirationTime(now + API_KEY_LIFETIME_S)
        .sign(privateKey);
      await sql`insert into auth.config (key, value) values (${name}, ${token})`.execute(trx);
      stored.set(name, token);
      created = true;
    }
    // Added after the first release: generated on the next start of an existing deployment, and
    // not worth a log line (nobody needs to copy it).
    if (!stored.has("refresh_token_secret")) {
      const secret = randomToken(32);
      await sql`insert into auth.config (key, value) values ('refresh_token_secret', ${secret})`.execute(trx);
      stored.set("refresh_token_secret", secret);
    }
    return {
      created,
      keys: {
        kid: row.kid,
        privateKey,
        publicJwk,
        anonKey: stored.get("anon_key") as string,
        serviceRoleKey: stored.get("service_role_key") as string,
        refreshTokenSecret: stored.get("refresh_token_secret") as string,
      },
    };
  });
}
