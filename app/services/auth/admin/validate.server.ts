import { adminErrors } from "../errors.server.ts";
import { normalizePhone } from "../mfa/phone.server.ts";

export function validPhone(input: string): string {
  const phone = normalizePhone(input);
  if (!phone) throw adminErrors.invalidPhoneFormat();
  return phone;
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * `ban_duration` as GoTrue takes it: a Go duration ("24h", "1h30m", "876000h") or "none".
 * Returns when the ban ends, or null for no ban.
 */
export function banUntil(duration: string, now = Date.now()): Date | null {
  if (duration === "none") return null;
  const match = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(duration);
  if (!match && duration !== "0") throw adminErrors.badBanDuration();
  let ms = 0;
  for (const part of duration.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    ms += Number(part[1]) * (UNIT_MS[part[2] as string] ?? 0);
  }
  if (match?.[1] === "-") ms = -ms;
  if (!Number.isFinite(ms) || Math.abs(ms) > 1e15) throw adminErrors.badBanDuration();
  return ms === 0 ? null : new Date(now + ms);
}
