import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";

// What every authenticator app assumes and GoTrue uses: RFC 6238 defaults.
const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30 } as const;

export interface TotpEnrollment {
  /** Base32, as authenticator apps take it when typed in. */
  secret: string;
  /** otpauth://totp/… for the QR code. */
  uri: string;
  /** SVG markup; supabase-js prefixes it with `data:image/svg+xml;utf-8,`. */
  qrCode: string;
}

export async function newTotpEnrollment(issuer: string, accountName: string): Promise<TotpEnrollment> {
  const secret = new Secret({ size: 20 });
  const uri = new TOTP({ ...TOTP_SETTINGS, issuer, label: accountName, secret }).toString();
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  // The markup ends up unescaped in a data: URL, where "#" would start a fragment and cut it short.
  return { secret: secret.base32, uri, qrCode: svg.replaceAll("#000000", "black").replaceAll("#ffffff", "white") };
}

/**
 * The time step `code` was generated for, accepting one step of clock drift either way, or null
 * when it matches none. Callers store the step so the same code cannot be replayed.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secretBase32) });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}
