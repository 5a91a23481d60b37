import { describe, expect, it } from "vitest";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import { loader as codingLoader } from "#app/routes/app/coding.tsx";
import { loader as transcribingLoader } from "#app/routes/app/transcribing.tsx";
import { loader as authLayoutLoader } from "#app/routes/layouts/auth.tsx";
import { middleware as localeMiddleware } from "#app/routes/locale.tsx";
import { createTestContext, responseOf } from "#tests/setup/context.ts";

const user = { id: "6f1c1e2a-4d7b-4b8e-9a51-2f0a3d6c9e10", email: "ana@example.test" };

async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected the loader to throw");
}

describe("signed-in pages", () => {
  it("send anonymous visitors to the sign-in page of their language (the app layout's middleware)", async () => {
    const request = new Request("http://murmur.test/fr/transcribing?visit_id=abc");
    const res = await responseOf(() =>
      orgMiddleware({ request, context: createTestContext(), params: {} } as never, async () => new Response()),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/fr/login?redirectTo=%2Ffr%2Ftranscribing%3Fvisit_id%3Dabc");
  });

  it("check a visit id's form before anything else", async () => {
    const request = new Request("http://murmur.test/transcribing?visit_id=abc");
    const error = await thrownBy(() =>
      transcribingLoader({ request, context: createTestContext({ user }), params: {} } as never),
    );
    expect(error).toMatchObject({ data: { kind: "invalid" }, init: { status: 404 } });
  });

  it("answer 'Page Not Found' (validity check) for a malformed id", async () => {
    const request = new Request("http://murmur.test/coding?id=not-an-id");
    const error = await thrownBy(() => codingLoader({ request, context: createTestContext({ user }), params: {} } as never));
    expect(error).toMatchObject({ data: { kind: "invalid" }, init: { status: 404 } });
  });
});

describe("language prefix guard", () => {
  // Resolves to "next" when the guard lets the request through, else to what it threw.
  const run = async (url: string, lang: string | undefined) => {
    const guard = localeMiddleware[0] as (args: unknown, next: unknown) => unknown;
    try {
      await guard({ request: new Request(`http://murmur.test${url}`), params: { lang }, context: createTestContext() }, () => {});
      return "next";
    } catch (thrown) {
      return thrown;
    }
  };

  it("passes English (no prefix), fr and es through", async () => {
    expect(await run("/login", undefined)).toBe("next");
    expect(await run("/fr/login", "fr")).toBe("next");
    expect(await run("/es/login", "es")).toBe("next");
  });

  it("redirects /en/… to the unprefixed page, keeping the query", async () => {
    const res = (await run("/en/product?x=1", "en")) as Response;
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/product?x=1");
  });

  it("answers 404 for any other prefix", async () => {
    expect(await run("/de/login", "de")).toMatchObject({ init: { status: 404 }, data: { kind: "unmatched" } });
  });
});

describe("auth pages", () => {
  it("drop a stripe query parameter by redirecting (SPEC §2)", async () => {
    const request = new Request("http://murmur.test/es/login?stripe=success&redirectTo=%2Fdashboard");
    const res = await responseOf(() => authLayoutLoader({ request, context: createTestContext(), params: {} } as never));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/es/login?redirectTo=%2Fdashboard");
  });

  it("render normally without it", () => {
    const request = new Request("http://murmur.test/login");
    expect(authLayoutLoader({ request, context: createTestContext(), params: {} } as never)).toBeNull();
  });
});
