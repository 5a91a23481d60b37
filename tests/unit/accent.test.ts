import { describe, expect, it } from "vitest";
import { accentCss, accentIsReadable, contrastRatio, DEFAULT_ACCENT } from "#app/utils/accent.ts";

describe("practice accent colour", () => {
  it("measures WCAG contrast", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    // Murmur's own accent carries white text at AA.
    expect(contrastRatio(DEFAULT_ACCENT, "#ffffff")).toBeGreaterThan(4.5);
  });

  it("accepts only #rrggbb colours white text reads on", () => {
    expect(accentIsReadable("#0b7285")).toBe(true);
    expect(accentIsReadable("#ffd43b")).toBe(false);
    expect(accentIsReadable("#777777")).toBe(false); // 4.48:1, just under AA
    expect(accentIsReadable("#767676")).toBe(true); // 4.54:1
    expect(accentIsReadable("#0B7285")).toBe(false); // stored lower-case only
    expect(accentIsReadable("blue")).toBe(false);
  });

  it("writes a stylesheet only for a valid colour, so nothing else reaches the page", () => {
    expect(accentCss(null)).toBeNull();
    expect(accentCss("#ffd43b")).toBeNull();
    expect(accentCss("#000000; } body { display: none")).toBeNull();
    const css = accentCss("#0b7285") ?? "";
    expect(css).toContain(":root { --mm-accent: #0b7285;");
    expect(css).toContain(':root[data-theme="dark"]');
    expect(css).toContain("--mm-on-accent: #ffffff");
  });
});
