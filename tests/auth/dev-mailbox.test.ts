import { sql } from "kysely";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getInstance, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import DevMailbox, { loader as pageLoader } from "#app/routes/dev/mailbox.tsx";
import { loader as jsonLoader } from "#app/routes/resources/dev-mailbox-json.ts";
import type { MailboxMessage } from "#app/services/auth/mailbox.server.ts";
import { sendAuthSms } from "#app/services/auth/mailer.server.ts";
import { createTestAuth, type TestAuth } from "#tests/setup/auth.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";

type JsonArgs = Parameters<typeof jsonLoader>[0];
type PageArgs = Parameters<typeof pageLoader>[0];

const jsonArgs = (t: TestAuth) =>
  ({
    request: new Request("http://murmur.test/dev/mailbox.json"),
    params: {},
    context: createTestContext({ db: t.db, auth: t.auth }),
  }) as unknown as JsonArgs;

describe("dev mailbox enabled (MURMUR_DEV_MAILBOX=1)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await createTestAuth({ MURMUR_DEV_MAILBOX: "1" });
    await t.client().auth.signUp({ email: "first@example.org", password: "Correct-Horse-7" });
    await sendAuthSms(t.auth, { kind: "otp", to: "+33600000000", locale: "en", code: "123456" });
    await t.client().auth.resetPasswordForEmail("first@example.org");
  });
  afterAll(() => t.close());

  it("GET /dev/mailbox.json lists every email and SMS, newest first", async () => {
    const res = await responseOf(() => jsonLoader(jsonArgs(t)));
    expect(res.status).toBe(200);
    const messages = (await res.json()) as MailboxMessage[];
    expect(messages.map((m) => [m.to, m.subject])).toEqual([
      ["first@example.org", "Reset your Murmur password"],
      ["+33600000000", null],
      ["first@example.org", "Confirm your email for Murmur AI Scribe"],
    ]);
    expect(messages[0]).toMatchObject({ channel: "email", text: expect.stringContaining("/auth/v1/verify?token=") });
    expect(messages[0]?.html).toContain("<a href=");
    expect(messages[1]).toMatchObject({ channel: "sms", html: null, text: "Your Murmur sign-in code is 123456" });
    expect(Date.parse(messages[2]?.created_at ?? "")).not.toBeNaN();
  });

  it("the /dev/mailbox page lists the messages with clickable links, in the page's language", async () => {
    const context = createTestContext({ db: t.db, auth: t.auth });
    const data = await pageLoader({ request: new Request("http://murmur.test/fr/dev/mailbox"), params: {}, context } as never);
    expect(data.messages).toHaveLength(3);
    let html = "";
    await i18nextMiddleware(
      { request: new Request("http://murmur.test/fr/dev/mailbox"), context, params: {} } as never,
      async () => {
        const Stub = createRoutesStub([{ path: "*", Component: () => createElement(DevMailbox, { loaderData: data } as never) }]);
        html = renderToString(createElement(I18nextProvider, { i18n: getInstance(context) }, createElement(Stub)));
        return new Response();
      },
    );
    expect(html).toContain("Boîte de réception de développement");
    expect(html).toMatch(/<a href="http:\/\/murmur\.test\/auth\/v1\/verify\?token=[^"]+type=recovery/);
    expect(html.indexOf("Reset your Murmur password")).toBeLessThan(html.indexOf("Confirm your email"));
  });
});

describe("dev mailbox disabled (default)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await createTestAuth();
    await sql`insert into auth.outbox (channel, recipient, template, locale, subject, text_body)
              values ('email', 'x@example.org', 'confirmation', 'en', 'secret', 'secret link')`.execute(t.db.kysely);
  });
  afterAll(() => t.close());

  it("both the JSON and the page answer 404", async () => {
    const res = await responseOf(() => jsonLoader(jsonArgs(t)));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("secret");
    const context = createTestContext({ db: t.db, auth: t.auth });
    await expect(
      pageLoader({ request: new Request("http://murmur.test/dev/mailbox"), params: {}, context } as unknown as PageArgs),
    ).rejects.toMatchObject({ init: { status: 404 } });
  });
});
