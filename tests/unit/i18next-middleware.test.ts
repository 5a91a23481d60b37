import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { resources } from "#app/i18n/resources.server.ts";
import { getInstance, getLocale, i18nextMiddleware } from "#app/middleware/i18next.server.ts";

// Issue 17: one i18next instance per language, initialised once, instead of one per request.
// The language still follows the URL on every request, and concurrent requests in different
// languages each get their own language's instance.
async function run(path: string) {
  const context = new RouterContextProvider();
  let seen: { locale: string; language: string; instance: unknown } | null = null;
  await i18nextMiddleware({ request: new Request(`http://127.0.0.1${path}`), context, params: {} } as never, async () => {
    const instance = getInstance(context);
    seen = { locale: getLocale(context), language: instance.language, instance };
    return new Response(null);
  });
  if (!seen) throw new Error("the middleware did not call next");
  return seen as { locale: string; language: string; instance: unknown };
}

describe("i18nextMiddleware", () => {
  it("takes the language from the URL, API paths and unknown prefixes in the default language", async () => {
    const [fr, es, en, api, other] = await Promise.all([
      run("/fr/login"),
      run("/es"),
      run("/login"),
      run("/api/visits"),
      run("/de/x"),
    ]);
    expect([fr.locale, es.locale, en.locale, api.locale, other.locale]).toEqual(["fr", "es", "en", "en", "en"]);
    expect([fr.language, es.language, en.language]).toEqual(["fr", "es", "en"]);
  });

  it("translates with each language's own messages", async () => {
    // "language.label" differs in all three languages, so a wrong language cannot pass.
    const key = "language.label";
    const expected = (l: "en" | "fr" | "es") =>
      (resources[l] as unknown as Record<string, Record<string, Record<string, string>>>).common?.language?.label ?? "";
    expect(new Set([expected("en"), expected("fr"), expected("es")]).size).toBe(3);
    const t = async (path: string) => {
      const context = new RouterContextProvider();
      let text = "";
      await i18nextMiddleware({ request: new Request(`http://127.0.0.1${path}`), context, params: {} } as never, async () => {
        text = getInstance(context).t(`common:${key}`);
        return new Response(null);
      });
      return text;
    };
    expect(await t("/fr/login")).toBe(expected("fr"));
    expect(await t("/es/login")).toBe(expected("es"));
    expect(await t("/login")).toBe(expected("en"));
  });

  it("reuses one instance per language instead of building one per request", async () => {
    const a = await run("/fr/visits");
    const b = await run("/fr/dashboard");
    const c = await run("/es/visits");
    expect(a.instance).toBe(b.instance);
    expect(c.instance).not.toBe(a.instance);
  });
});
