import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { banUntil } from "#app/services/auth/admin/validate.server.ts";
import { unstorableReason } from "#app/services/auth/api/storable.server.ts";
import { normalizePhone } from "#app/services/auth/mfa/phone.server.ts";
import { newTotpEnrollment, totpStep } from "#app/services/auth/mfa/totp.server.ts";

describe("TOTP", () => {
  const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
  const now = Date.UTC(2026, 0, 1, 12, 0, 10);
  const step = Math.floor(now / 30_000);
  const codeAt = (s: number) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: s * 30_000 });

  it("accepts the current step and one either side, and says which step matched", () => {
    expect(totpStep(secret, codeAt(step), now)).toBe(step);
    expect(totpStep(secret, codeAt(step - 1), now)).toBe(step - 1);
    expect(totpStep(secret, codeAt(step + 1), now)).toBe(step + 1);
  });

  it("rejects codes two steps away and anything that is not six digits", () => {
    for (const s of [step - 2, step + 2]) {
      const code = codeAt(s);
      if (![step - 1, step, step + 1].some((near) => codeAt(near) === code)) expect(totpStep(secret, code, now)).toBeNull();
    }
    expect(totpStep(secret, "12345", now)).toBeNull();
    expect(totpStep(secret, "12345a", now)).toBeNull();
    expect(totpStep(secret, ` ${codeAt(step)}`, now)).toBeNull();
  });

  it("enrols with a 160-bit base32 secret, an otpauth URI and an SVG without '#'", async () => {
    const enrollment = await newTotpEnrollment("murmur.test", "dr@example.test");
    expect(enrollment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrollment.uri).toContain(`secret=${enrollment.secret}`);
    expect(enrollment.uri).toMatch(/^otpauth:\/\/totp\/murmur\.test:dr%40example\.test\?.*issuer=murmur\.test/);
    expect(enrollment.qrCode.startsWith("<svg")).toBe(true);
    expect(enrollment.qrCode).not.toContain("#");
  });
});

describe("phone numbers", () => {
  it("normalizes to E.164 digits as GoTrue does", () => {
    expect(normalizePhone("+1 555 010 0199")).toBe("15550100199");
    expect(normalizePhone("33612345678")).toBe("33612345678");
    expect(normalizePhone("+0123")).toBeNull();
    expect(normalizePhone("+1-555-010")).toBeNull();
    expect(normalizePhone("1234567890123456")).toBeNull();
  });
});

describe("ban_duration", () => {
  const now = Date.UTC(2026, 0, 1);
  it("takes Go durations and 'none'", () => {
    expect(banUntil("24h", now)?.getTime()).toBe(now + 24 * 3600_000);
    expect(banUntil("1h30m", now)?.getTime()).toBe(now + 90 * 60_000);
    expect(banUntil("1.5s", now)?.getTime()).toBe(now + 1500);
    expect(banUntil("none", now)).toBeNull();
    expect(banUntil("0", now)).toBeNull();
  });
  it("refuses anything else, and durations past what a date can hold", () => {
    for (const bad of ["", "forever", "24", "h", "1d", "9999999999h", "1h 30m"]) {
      expect(() => banUntil(bad, now), bad).toThrow();
    }
  });
});

describe("storable request values", () => {
  it("refuses NUL and unpaired surrogates anywhere, including keys", () => {
    expect(unstorableReason({ a: ["x", { b: "ok" }] })).toBeNull();
    expect(unstorableReason({ a: "x\u0000" })).not.toBeNull();
    expect(unstorableReason({ "k\ud800": 1 })).not.toBeNull();
    expect(unstorableReason(["\udfff"])).not.toBeNull();
    expect(unstorableReason("😀")).toBeNull();
  });
  it("refuses deep nesting without recursing", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(unstorableReason(deep)).toMatch(/nested/);
  });
});
