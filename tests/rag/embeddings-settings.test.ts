import { createElement } from "react";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import { resources } from "#app/i18n/resources.server.ts";
import * as organizationPage from "#app/routes/app/settings/organization.tsx";
import { runtimeContext } from "#app/runtime/context.ts";
import { createEmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { embedMissing } from "#app/services/rag/embeddings/reembed.server.ts";
import { renderAt, textOf } from "#tests/billing/render.ts";
import { createEmbeddingsMock } from "#tests/mocks/openai-embeddings.ts";
import { transcribedVisit } from "#tests/notes/notes-harness.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, pageContextIn, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 12 "Re-embedding is a resumable background job with progress": owners follow it on
// Settings → Organisation (server-rendered, en/fr/es) and start or resume it there, the same
// status and rules as GET/POST /api/rag/embeddings. msw plays the embeddings server.

const BASE = "http://embeddings.test/v1";
const MODEL = "concepts-64-settings";
const mock = createEmbeddingsMock(BASE);
const client = createEmbeddingsClient({ EMBEDDINGS_BASE_URL: BASE, EMBEDDINGS_MODEL: MODEL, EMBEDDINGS_TIMEOUT_MS: 5000 });
const en = resources.en.orgSettings.semanticSearch;

describeEachDatabase("Settings → Organisation: Ask Murmur's re-embedding", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    mock.server.listen({ onUnhandledFrame: "bypass" });
    h = await openVisitHarness(target);
    await transcribedVisit(h);
  }, 240_000);
  afterAll(async () => {
    mock.server.close();
    await h.close();
  });

  /** The page's loader or action as React Router calls them, `role` of org A, with EMBEDDINGS_* set or not. */
  async function page(role: OrgRole, path: string, options: { configured: boolean; form?: Record<string, string> }) {
    const user = h.a.users[role];
    const context = pageContextIn(h, h.a.orgId, { id: user.id, email: user.email }, role);
    const env = context.get(runtimeContext).env as Record<string, unknown>;
    for (const key of ["EMBEDDINGS_BASE_URL", "EMBEDDINGS_MODEL"]) delete env[key];
    if (options.configured) Object.assign(env, { EMBEDDINGS_BASE_URL: BASE, EMBEDDINGS_MODEL: MODEL });
    const request = options.form
      ? new Request(`${TEST_SITE_URL}${path}`, { method: "POST", body: new URLSearchParams(options.form) })
      : new Request(`${TEST_SITE_URL}${path}`);
    try {
      const handler = options.form ? organizationPage.action : organizationPage.loader;
      // biome-ignore lint/suspicious/noExplicitAny: loader data and action results are read field by field.
      const result: any = await handler({ request, context, params: {} } as never);
      return result?.type === "DataWithResponseInit" ? { status: result.init?.status ?? 200, ...result.data } : result;
    } finally {
      for (const key of ["EMBEDDINGS_BASE_URL", "EMBEDDINGS_MODEL"]) delete env[key];
    }
  }
  const render = async (path: string, loaderData: unknown, actionData?: unknown) =>
    renderAt(path, createElement(organizationPage.default, { loaderData, actionData } as never));

  it("off without EMBEDDINGS_*: owners are told so, other roles see nothing, starting is refused", async () => {
    const owner = await page("owner", "/fr/settings/organization", { configured: false });
    expect(owner.semanticSearch).toMatchObject({ configured: false, model: null, state: "idle", done: 0 });
    expect(owner.semanticSearch.total).toBeGreaterThan(0);
    expect(textOf(await render("/fr/settings/organization", owner))).toContain(
      textOf(resources.fr.orgSettings.semanticSearch.off),
    );
    for (const role of ["admin", "clinician", "staff"] as const) {
      const data = await page(role, "/settings/organization", { configured: false });
      expect(data.semanticSearch, role).toBeNull();
      expect(await render("/settings/organization", data)).not.toContain('data-testid="semantic-search"');
    }
    expect(await page("owner", "/settings/organization", { configured: false, form: { intent: "reembed" } })).toEqual({
      status: 409,
      intent: "reembed",
      failure: { code: "embeddings_not_configured" },
    });
    // The API's rule on the page too: only owners start it.
    expect(await page("admin", "/settings/organization", { configured: true, form: { intent: "reembed" } })).toMatchObject({
      status: 403,
      failure: { code: "forbidden_role" },
    });
  });

  it("shows done/total, the last error and a resume button; the button queues the job; done hides it", async () => {
    if (!client) throw new Error("client");
    const idle = await page("owner", "/settings/organization", { configured: true });
    const total: number = idle.semanticSearch.total;
    expect(idle.semanticSearch).toMatchObject({ configured: true, model: MODEL, state: "idle", done: 0 });
    // PGlite opens with pgvector (ADR 0027); server PostgreSQL has it only where the package is installed.
    if (target.name === "pglite") expect(idle.semanticSearch.pgvector).toBe(true);
    const idleText = textOf(await render("/settings/organization", idle));
    expect(idleText).toContain(`0 of ${total} passages embedded`);
    expect(idleText).toContain(en.start);

    // One batch, then the embeddings server fails: the run stops on its error, what was embedded stays.
    await embedMissing({ db: h.db, client, orgId: h.a.orgId, batchSize: 2, maxBatches: 1 });
    mock.fail = true;
    await expect(embedMissing({ db: h.db, client, orgId: h.a.orgId, batchSize: 2 })).rejects.toThrow("500");
    mock.fail = false;
    const failed = await page("owner", "/es/settings/organization", { configured: true });
    expect(failed.semanticSearch).toMatchObject({ state: "failed", done: 2, error: "embeddings server answered 500" });
    expect(failed.semanticSearch.updatedAt).toEqual(expect.any(String));
    const es = resources.es.orgSettings.semanticSearch;
    const failedHtml = await render("/es/settings/organization", failed);
    expect(textOf(failedHtml)).toContain(`2 de ${total} pasajes vectorizados`);
    expect(textOf(failedHtml)).toContain(es.states.failed);
    expect(textOf(failedHtml)).toContain("embeddings server answered 500");
    expect(textOf(failedHtml)).toContain(es.resume);
    expect(failedHtml).toContain('name="intent" value="reembed"');

    // Resume: queued (no worker runs here), then the job picks up from what is missing.
    const started = await page("owner", "/es/settings/organization", { configured: true, form: { intent: "reembed" } });
    expect(started).toEqual({ intent: "reembed", done: true });
    const queued = await page("owner", "/settings/organization", { configured: true });
    expect(queued.semanticSearch).toMatchObject({ state: "queued", done: 2, error: null });
    const queuedHtml = await render("/settings/organization", queued, started);
    expect(textOf(queuedHtml)).toContain(en.queued);
    // While the job works the button is hidden: a second start would only coalesce with it.
    expect(queuedHtml).not.toContain('data-testid="semantic-search-start"');
    const calls = mock.calls.length;
    expect(await embedMissing({ db: h.db, client, orgId: h.a.orgId, batchSize: 2 })).toEqual({
      done: total,
      total,
      finished: true,
    });
    expect(mock.calls.slice(calls).reduce((n, c) => n + c.body.input.length, 0)).toBe(total - 2);

    const done = await page("owner", "/fr/settings/organization", { configured: true });
    expect(done.semanticSearch).toMatchObject({ state: "done", done: total, total });
    const doneHtml = await render("/fr/settings/organization", done);
    expect(textOf(doneHtml)).toContain(resources.fr.orgSettings.semanticSearch.states.done);
    expect(doneHtml).not.toContain('data-testid="semantic-search-start"');
  });
});
