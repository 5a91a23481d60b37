import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  createMemoryRouter,
  createStaticHandler,
  createStaticRouter,
  Outlet,
  type RouterContextProvider,
  StaticRouterProvider,
  useRouteError,
} from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { getInstance, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import { ErrorBoundary as RootErrorBoundary } from "#app/root.tsx";
import * as codingPage from "#app/routes/app/coding.tsx";
import * as customTemplatesPage from "#app/routes/app/custom-templates.tsx";
import * as dashboardPage from "#app/routes/app/dashboard.tsx";
import * as orgNewPage from "#app/routes/app/org-new.tsx";
import * as billingPage from "#app/routes/app/settings/billing.tsx";
import * as invitationsPage from "#app/routes/app/settings/invitations.tsx";
import * as membersPage from "#app/routes/app/settings/members.tsx";
import * as organizationPage from "#app/routes/app/settings/organization.tsx";
import * as securityPage from "#app/routes/app/settings/security.tsx";
import * as transcribingPage from "#app/routes/app/transcribing.tsx";
import * as acceptInvitePage from "#app/routes/auth/accept-invite.tsx";
import * as loginPage from "#app/routes/auth/login.tsx";
import * as resetPasswordPage from "#app/routes/auth/reset-password.tsx";
import * as signupPage from "#app/routes/auth/signup.tsx";
import * as updatePasswordPage from "#app/routes/auth/update-password.tsx";
import * as testRealAudioPage from "#app/routes/diagnostics/test-real-audio.tsx";
import * as testUploadPage from "#app/routes/diagnostics/test-upload.tsx";
import * as switchOrgRoute from "#app/routes/resources/switch-org.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { BAD_FORM_BODIES, type BadFormBody, badFormBody } from "#tests/setup/fuzz.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";

// Rule: no 500 for anything a client can send. `request.formData()` threw a TypeError (a 500) for a
// JSON body, another or no Content-Type, or a broken multipart body; every action now reads its body
// with readForm (app/utils/read-form.server.ts): 415 unsupported_media_type / 400 bad_form, with the
// code in the JSON body a page's error boundary translates. Ordinary form posts still work.

const SEED = 20_260_214;
const RUNS = Number(process.env.INPUT_FUZZ_RUNS ?? 40);

/** A POST with exactly this Content-Type (none for null): the body goes as bytes so nothing is added. */
function postRequest(url: string, { contentType, body }: Pick<BadFormBody, "contentType" | "body">, cookie?: string) {
  const headers = new Headers({ "user-agent": "vitest" });
  if (contentType !== null) headers.set("content-type", contentType);
  if (cookie) headers.set("cookie", cookie);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return new Request(url, { method: "POST", headers, body: bytes });
}

/** What an action produced, thrown or returned: status, and the stable code of a JSON error answer. */
async function outcome(run: () => unknown): Promise<{ status: number; code: unknown; data: unknown }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    const isJson = value.headers.get("content-type")?.includes("json");
    const body = isJson ? ((await value.json()) as { code?: unknown }) : null;
    return { status: value.status, code: body?.code, data: body };
  }
  if (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, code: undefined, data };
  }
  if (value instanceof Error) throw value;
  return { status: 200, code: undefined, data: value };
}

const SHAPES: Record<string, BadFormBody> = {
  json: {
    contentType: "application/json",
    body: '{"email":"a@b.test","password":"x","intent":"update"}',
    code: "unsupported_media_type",
  },
  "text/plain": { contentType: "text/plain;charset=UTF-8", body: "intent=update&name=x", code: "unsupported_media_type" },
  "no content type": { contentType: null, body: "intent=update", code: "unsupported_media_type" },
  "broken multipart": { contentType: "multipart/form-data; boundary=x", body: "garbage", code: "bad_form" },
  "truncated multipart": {
    contentType: "multipart/form-data; boundary=x",
    body: '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupdate',
    code: "bad_form",
  },
  "urlencoded, not UTF-8": { contentType: "application/x-www-form-urlencoded", body: "intent=update&name=%ff", code: "bad_form" },
};

function expectRefused(result: { status: number; code: unknown }, shape: BadFormBody) {
  expect(result).toMatchObject({ status: shape.code === "bad_form" ? 400 : 415, code: shape.code });
}

describe("readForm", () => {
  const url = `${TEST_SITE_URL}/login`;

  it("reads urlencoded bodies exactly as request.formData() does (names, values, +, escapes, repeats, Unicode)", async () => {
    const entry = fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 }));
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 6 }), async (entries) => {
        const body = new URLSearchParams(entries).toString();
        const ours = await readForm(new Request(url, { method: "POST", body: new URLSearchParams(entries) }));
        const theirs = await new Request(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }).formData();
        expect([...ours]).toEqual([...theirs]);
      }),
      { seed: SEED, numRuns: 200 },
    );
    const form = await readForm(
      postRequest(url, {
        contentType: "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
        body: "a=1+2%2B3&&b&=c&a=%C3%A9t%C3%A9",
      }),
    );
    expect([...form]).toEqual([
      ["a", "1 2+3"],
      ["b", ""],
      ["", "c"],
      ["a", "été"],
    ]);
  });

  it("reads multipart bodies with files, as a browser or a fetcher sends them", async () => {
    const sent = new FormData();
    sent.append("intent", "import");
    sent.append("name", "Clinique été");
    sent.append("file", new File(['{"a":1}'], "template.json", { type: "application/json" }));
    const form = await readForm(new Request(url, { method: "POST", body: sent }));
    expect(form.get("intent")).toBe("import");
    expect(form.get("name")).toBe("Clinique été");
    const file = form.get("file") as File;
    expect([file.name, file.type, await file.text()]).toEqual(["template.json", "application/json", '{"a":1}']);
  });

  it("keeps working for the requests React Router itself builds for <Form>, useSubmit and fetchers", async () => {
    const received: unknown[] = [];
    const router = createMemoryRouter(
      [
        {
          id: "page",
          path: "/page",
          action: async ({ request }) => {
            try {
              received.push(Object.fromEntries(await readForm(request)));
            } catch (thrown) {
              received.push(thrown instanceof Response ? { status: thrown.status } : thrown);
            }
            return null;
          },
          Component: () => null,
        },
      ],
      { initialEntries: ["/page"] },
    );
    const submit = async (opts: Parameters<typeof router.fetch>[3]) => {
      await router.fetch(`k${received.length}`, "page", "/page", opts);
      await new Promise((resolve) => setTimeout(resolve, 0));
      while (router.state.fetchers.size > 0 && [...router.state.fetchers.values()].some((f) => f.state !== "idle")) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const formData = new FormData();
    formData.append("intent", "update");
    formData.append("name", "Cabinet d'été & co");
    await submit({ formMethod: "post", formData });
    await submit({ formMethod: "post", formData, formEncType: "multipart/form-data" });
    await router.navigate("/page", { formMethod: "post", formData });
    // JSON submissions are not how Murmur's forms post: refused, not a crash.
    await submit({ formMethod: "post", body: { intent: "update" }, formEncType: "application/json" });
    router.dispose();
    const fields = { intent: "update", name: "Cabinet d'été & co" };
    expect(received).toEqual([fields, fields, fields, { status: 415 }]);
  });

  it.each(BAD_FORM_BODIES.map((shape) => [`${shape.contentType} ${JSON.stringify(String(shape.body)).slice(0, 60)}`, shape]))(
    "refuses %s with its stable code",
    async (_, shape) => {
      const result = await outcome(() => readForm(postRequest(url, shape)));
      expectRefused(result, shape);
      expect(result.data).toEqual({ code: shape.code, message: expect.any(String) });
    },
  );

  it("says which encodings it accepts on a 415, and never caches a refusal", async () => {
    const thrown = await readForm(postRequest(url, SHAPES.json as BadFormBody)).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.headers.get("accept-post")).toBe("application/x-www-form-urlencoded, multipart/form-data");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("a body the route already read is a bug in the route, not a client error", async () => {
    const request = new Request(url, { method: "POST", body: new URLSearchParams({ a: "1" }) });
    await request.text();
    await expect(readForm(request)).rejects.toBeInstanceOf(TypeError);
  });
});

describe("no route action reads request.formData() itself", () => {
  it("every action under app/routes goes through readForm", () => {
    // A JSON API that takes a file upload answers its own 411/413/415/400 in JSON before and around
    // formData() (tests/coding/code-systems-import.test.ts); readForm's page answers do not fit it.
    const exempt = new Set([path.resolve("app/routes/resources/api-code-systems-import.ts")]);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.(ts|tsx)$/.test(entry.name) && /\brequest\.formData\(\)/.test(fs.readFileSync(file, "utf8"))) {
          offenders.push(file);
        }
      }
    };
    walk(path.resolve("app/routes"));
    expect(offenders.filter((file) => !exempt.has(file))).toEqual([]);
  });
});

describe("the page a browser gets", () => {
  /** A document POST through React Router's own handler: the action's thrown answer reaches the root error boundary. */
  async function renderPost(pathname: string, shape: BadFormBody): Promise<{ status: number; html: string }> {
    const context = createTestContext();
    const request = postRequest(`${TEST_SITE_URL}${pathname}`, shape);
    let status = 0;
    let html = "";
    await i18nextMiddleware({ request, context, params: {} } as never, async () => {
      const routes = [
        {
          id: "root",
          path: "/",
          Component: Outlet,
          ErrorBoundary: () => createElement(RootErrorBoundary, { error: useRouteError() } as never),
          children: [
            {
              id: "login",
              path: ":lang?/login",
              action: (args: { request: Request; params: Record<string, string | undefined> }) =>
                loginPage.action({ ...args, context } as never),
              Component: () => null,
            },
          ],
        },
      ];
      const handler = createStaticHandler(routes);
      const result = await handler.query(request, { requestContext: context as RouterContextProvider });
      if (result instanceof Response) throw new Error(`unexpected response ${result.status}`);
      status = result.statusCode;
      html = renderToString(
        createElement(
          I18nextProvider,
          { i18n: getInstance(context) },
          createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, result), context: result }),
        ),
      );
      return new Response();
    });
    return { status, html };
  }

  it("shows the translated reason and the stable code, in the page's language", async () => {
    const fr = await renderPost("/fr/login", SHAPES.json as BadFormBody);
    expect(fr.status).toBe(415);
    expect(fr.html).toContain('data-code="unsupported_media_type"');
    expect(fr.html).toContain("Cette page n&#x27;accepte que des envois de formulaire.");
    const es = await renderPost("/es/login", SHAPES["broken multipart"] as BadFormBody);
    expect(es.status).toBe(400);
    expect(es.html).toContain('data-code="bad_form"');
    expect(es.html).toContain("No se pudo leer el formulario.");
    const en = await renderPost("/login", SHAPES["urlencoded, not UTF-8"] as BadFormBody);
    expect(en.status).toBe(400);
    expect(en.html).toContain("The form could not be read.");
    expect(en.html).not.toContain("Internal Server Error");
  });
});

type Module = { action: (args: never) => unknown };
type Scope = "anonymous" | "app" | "diagnostic";

const ACTIONS: [string, Module, Scope][] = [
  ["/login", loginPage, "anonymous"],
  ["/fr/signup", signupPage, "anonymous"],
  ["/reset-password", resetPasswordPage, "anonymous"],
  ["/update-password", updatePasswordPage, "anonymous"],
  ["/es/accept-invite?token=abc", acceptInvitePage, "anonymous"],
  ["/dashboard", dashboardPage, "app"],
  ["/fr/transcribing", transcribingPage, "app"],
  ["/coding", codingPage, "app"],
  ["/custom-templates", customTemplatesPage, "app"],
  ["/organizations/new", orgNewPage, "app"],
  ["/settings/organization", organizationPage, "app"],
  ["/settings/members", membersPage, "app"],
  ["/settings/invitations", invitationsPage, "app"],
  ["/settings", securityPage, "app"],
  ["/settings/billing", billingPage, "app"],
  ["/test-upload", testUploadPage, "diagnostic"],
  ["/test-real-audio", testRealAudioPage, "diagnostic"],
];

describeEachDatabase("page actions refuse a body that is not a form", (target) => {
  let db: Database;
  let user: { id: string; email: string };
  let orgId: string;

  beforeAll(async () => {
    db = await target.open();
    user = await createAuthUser(db, { fullName: "Ana Ruiz" });
    orgId = await createOrg(db, [{ userId: user.id, role: "owner" }], { name: "Clinique Ana", plan: "Clinic" });
  });

  afterAll(async () => {
    await db.close();
  });

  /** POST `shape` to `mod`'s action the way React Router runs it (the app layout's middleware first for app pages). */
  async function post(pathname: string, mod: Module, scope: Scope, shape: Pick<BadFormBody, "contentType" | "body">) {
    const context = createTestContext({ db });
    if (scope !== "anonymous") context.set(userContext, { id: user.id, email: user.email });
    const request = postRequest(`${TEST_SITE_URL}${pathname}`, shape, `murmur-org=${orgId}`);
    const run = () => mod.action({ request, context, params: {} } as never);
    if (scope !== "app") return outcome(run);
    let inner: Awaited<ReturnType<typeof outcome>> | undefined;
    const outer = await outcome(() =>
      orgMiddleware({ request, context, params: {} } as never, async () => {
        inner = await outcome(run);
        return new Response(null, { status: inner.status });
      }),
    );
    return inner ?? outer;
  }

  for (const [pathname, mod, scope] of ACTIONS) {
    it(`${pathname}: JSON, another or no type, broken multipart or non-UTF-8 urlencoded is a 4xx with a stable code`, async () => {
      for (const [name, shape] of Object.entries(SHAPES)) {
        const result = await post(pathname, mod, scope, shape);
        expect({ name, ...result }).toMatchObject({ name, status: shape.code === "bad_form" ? 400 : 415, code: shape.code });
      }
    });
  }

  it("an ordinary form post still reaches each page's own validation", async () => {
    const login = await post("/login", loginPage, "anonymous", { contentType: "application/x-www-form-urlencoded", body: "" });
    expect(login).toMatchObject({ status: 400, data: { failure: { code: "invalid_input" } } });
    const multipart = new FormData();
    multipart.append("intent", "update");
    multipart.append("name", "");
    const context = createTestContext({ db });
    context.set(userContext, { id: user.id, email: user.email });
    const request = new Request(`${TEST_SITE_URL}/settings/organization`, {
      method: "POST",
      headers: { cookie: `murmur-org=${orgId}`, "user-agent": "vitest" },
      body: multipart,
    });
    let inner: Awaited<ReturnType<typeof outcome>> | undefined;
    await orgMiddleware({ request, context, params: {} } as never, async () => {
      inner = await outcome(() => organizationPage.action({ request, context, params: {} } as never));
      return new Response(null, { status: inner.status });
    });
    expect(inner?.status).toBe(400);
    expect(inner?.code).toBeUndefined();
    expect(inner?.data).toMatchObject({ intent: "update" });
  });

  it("the fuzz corpus of bodies never gets a 500 from the login and organisation settings actions", async () => {
    await fc.assert(
      fc.asyncProperty(badFormBody, async (shape) => {
        for (const [pathname, mod, scope] of [
          ["/login", loginPage, "anonymous"],
          ["/settings/organization", organizationPage, "app"],
        ] as const) {
          const result = await post(pathname, mod, scope, shape);
          expectRefused(result, shape);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("POST /_org (the organisation switcher, a resource route) answers the same codes as JSON", async () => {
    for (const shape of Object.values(SHAPES)) {
      const context = createTestContext({ db });
      context.set(userContext, { id: user.id, email: user.email });
      const request = postRequest(`${TEST_SITE_URL}/_org`, shape);
      const result = await outcome(() => switchOrgRoute.action({ request, context, params: {} } as never));
      expectRefused(result, shape);
    }
  });
});
