import { describe, expect, it } from "vitest";
import { pickAcceptLanguage } from "#app/i18n/accept-language.ts";
import { localeFromPath, localizePath, stripLocale } from "#app/i18n/config.ts";

describe("locale paths", () => {
  it("reads the language from the first segment", () => {
    expect(localeFromPath("/fr/login")).toBe("fr");
    expect(localeFromPath("/es")).toBe("es");
    expect(localeFromPath("/login")).toBe("en");
    expect(localeFromPath("/en/login")).toBe("en");
    expect(localeFromPath("/fresh")).toBe("en");
  });

  it("moves a page between languages", () => {
    expect(localizePath("/fr/product/coding", "es")).toBe("/es/product/coding");
    expect(localizePath("/es/login", "en")).toBe("/login");
    expect(localizePath("/", "fr")).toBe("/fr");
    expect(localizePath("/fr", "en")).toBe("/");
    expect(stripLocale("/en/about")).toBe("/about");
  });
});

describe("Accept-Language", () => {
  it("picks the best supported language by quality, then order", () => {
    expect(pickAcceptLanguage("es-MX,es;q=0.9,en;q=0.8")).toBe("es");
    expect(pickAcceptLanguage("en;q=0.5,fr;q=0.9")).toBe("fr");
    expect(pickAcceptLanguage("de,it")).toBeNull();
    expect(pickAcceptLanguage("fr;q=0")).toBeNull();
    expect(pickAcceptLanguage("")).toBeNull();
    expect(pickAcceptLanguage("*;q=abc,;;;")).toBeNull();
  });
});
