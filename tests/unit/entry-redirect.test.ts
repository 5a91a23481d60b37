import { describe, expect, it } from "vitest";
import { chooseEntryRedirect } from "#app/services/session/entry-redirect.server.ts";

const base = { prefix: undefined, cookieHeader: null, acceptLanguage: null, signedIn: false };
const at = (path: string) => new URL(`http://murmur.test${path}`);

describe("where / sends a visitor (SPEC §2)", () => {
  it("anonymous → /login, signed in → /dashboard", () => {
    expect(chooseEntryRedirect({ ...base, url: at("/") }).location).toBe("/login");
    expect(chooseEntryRedirect({ ...base, url: at("/"), signedIn: true }).location).toBe("/dashboard");
  });

  it("a first visit follows Accept-Language and remembers it for 365 days", () => {
    const r = chooseEntryRedirect({ ...base, url: at("/"), acceptLanguage: "de-DE,fr;q=0.8,en;q=0.5" });
    expect(r.location).toBe("/fr/login");
    expect(r.setCookie).toBe("i18n_redirected=fr; Path=/; Max-Age=31536000; SameSite=Lax");
    // Issue 17: over https (directly or through a trusted proxy) the cookie is Secure.
    const secure = chooseEntryRedirect({ ...base, url: new URL("https://murmur.test/"), acceptLanguage: "fr" });
    expect(secure.setCookie).toBe("i18n_redirected=fr; Path=/; Max-Age=31536000; SameSite=Lax; Secure");
  });

  it("a remembered choice wins over Accept-Language and is not rewritten", () => {
    const r = chooseEntryRedirect({ ...base, url: at("/"), cookieHeader: "a=1; i18n_redirected=es", acceptLanguage: "fr" });
    expect(r).toEqual({ location: "/es/login", setCookie: undefined });
  });

  it("an explicit prefix keeps its language and sets no cookie", () => {
    expect(chooseEntryRedirect({ ...base, url: at("/fr"), prefix: "fr", signedIn: true })).toEqual({
      location: "/fr/dashboard",
      setCookie: undefined,
    });
  });

  it("recovery and confirmation links go to /update-password with their values", () => {
    expect(chooseEntryRedirect({ ...base, url: at("/?token=abc&other=1") }).location).toBe("/update-password?token=abc");
    expect(chooseEntryRedirect({ ...base, url: at("/?code=xyz&type=recovery") }).location).toBe(
      "/update-password?code=xyz&type=recovery",
    );
    // a code without type=recovery is not a recovery link
    expect(chooseEntryRedirect({ ...base, url: at("/?code=xyz") }).location).toBe("/login");
  });

  it("ignores a malformed language cookie", () => {
    const r = chooseEntryRedirect({ ...base, url: at("/"), cookieHeader: "i18n_redirected=<script>", acceptLanguage: "es" });
    expect(r.location).toBe("/es/login");
  });
});
