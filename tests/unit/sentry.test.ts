import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeSentry } from "#tests/setup/fake-sentry.ts";

let fake: Awaited<ReturnType<typeof startFakeSentry>>;
beforeAll(async () => {
  fake = await startFakeSentry();
});
afterAll(() => fake.close());

describe("server error reporting", () => {
  it("only logs, and loads no Sentry, when no DSN is set", async () => {
    const { initServerSentry, reportServerError } = await import("#app/utils/sentry.server.ts");
    const logged: unknown[] = [];
    await initServerSentry({ release: "test", logger: (error) => logged.push(error) });
    reportServerError(new Error("quiet failure"));
    expect(logged).toHaveLength(1);
    expect(fake.envelopes).toHaveLength(0);
  });

  it("reports to Sentry when a DSN is set", async () => {
    const { initServerSentry, reportServerError } = await import("#app/utils/sentry.server.ts");
    await initServerSentry({ dsn: fake.dsn, release: "test-release", logger: () => {} });
    reportServerError(new Error("loud failure"), { url: "/x" });
    const Sentry = await import("@sentry/react-router");
    await Sentry.flush(5000);
    const all = fake.envelopes.join("\n");
    expect(all).toContain("loud failure");
    expect(all).toContain("test-release");
  });
});
