import { afterAll, beforeAll, expect, it } from "vitest";
import { action, loader } from "#app/routes/app/custom-templates.tsx";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { orgContext } from "#app/services/org-context/current-org.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";

// /custom-templates through its loader and action with the organisation from the server context:
// redirect-after-post with a notice, a member's save of an organisation template lands on their
// copy, failures come back as codes (the editor keeps its state), bad ids are the page 404.
describeEachDatabase("/custom-templates page", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  function contextAs(role: MemberOrg["role"]) {
    const context = h.context();
    const user = h.a.users[role];
    const org = {
      id: h.a.orgId,
      name: "A",
      slug: "a",
      kind: "practice",
      plan: "Clinic",
      pms: "none",
      timezone: "UTC",
      region: "us",
      trial_ends_at: null,
      role,
    } as const;
    context.set(orgContext, { user: { id: user.id, email: user.email }, org, role, orgs: [org], switchedFrom: null });
    return context;
  }

  async function post(role: MemberOrg["role"], fields: Record<string, string | Blob>, path = "/fr/custom-templates") {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const request = new Request(`http://murmur.test${path}`, { method: "POST", body: form });
    try {
      return { value: await action({ request, context: contextAs(role), params: {} } as never) };
    } catch (thrown) {
      return { thrown: thrown as Response };
    }
  }

  const idFrom = (response: Response) => new URL(response.headers.get("location") ?? "", "http://x").searchParams.get("id") ?? "";

  it("duplicates a built-in, then a clinician's save of an organisation template makes their copy", async () => {
    const dup = await post("owner", {
      intent: "duplicate",
      template_id: "builtin:soap",
      language: "fr",
      name: "SOAP du cabinet",
      scope: "organization",
    });
    expect(dup.thrown?.status).toBe(302);
    expect(dup.thrown?.headers.get("location")).toMatch(/^\/fr\/custom-templates\?id=[0-9a-f-]{36}&notice=duplicated$/);
    const orgId = idFrom(dup.thrown as Response);

    const page = await loader({
      request: new Request(`http://murmur.test/fr/custom-templates?id=${orgId}`),
      context: contextAs("clinician"),
      params: {},
    } as never);
    expect(page.selected).toMatchObject({ id: orgId, scope: "organization", language: "fr", editable_in_place: false });
    expect(page.templates.filter((t) => t.scope === "builtin")[0]?.name).toBe("Note SOAP");

    const content = { name: "Mon SOAP", language: "fr", description: "", sections: page.selected?.sections };
    const saved = await post("clinician", { intent: "save", template_id: orgId, template: JSON.stringify(content) });
    expect(saved.thrown?.headers.get("location")).toMatch(/notice=copied$/);
    expect(idFrom(saved.thrown as Response)).not.toBe(orgId);
    const byOwner = await post("owner", {
      intent: "save",
      template_id: orgId,
      template: JSON.stringify({ ...content, name: "SOAP v2" }),
    });
    expect(byOwner.thrown?.headers.get("location")).toBe(`/fr/custom-templates?id=${orgId}&notice=saved`);
  });

  it("answers failures with a code and status, never a redirect", async () => {
    const bad = await post("owner", { intent: "save", template_id: "builtin:soap", template: "{}" });
    expect(bad.value).toMatchObject({ data: { intent: "save", error: "builtin_read_only" }, init: { status: 409 } });
    const dupKeys = await post("owner", {
      intent: "create",
      template: JSON.stringify({
        name: "x",
        language: "en",
        sections: [1, 2].map(() => ({
          key: "a",
          title: "A",
          kind: "other",
          header: "always",
          style: "prose",
          verbosity: "standard",
          persistent: false,
        })),
      }),
    });
    expect(dupKeys.value).toMatchObject({ data: { error: "template_section_keys_duplicate" }, init: { status: 400 } });
    const notJson = await post("owner", {
      intent: "import",
      file: new File(["not json"], "t.json", { type: "application/json" }),
    });
    expect(notJson.value).toMatchObject({
      data: { intent: "import", error: "template_format_unsupported" },
      init: { status: 400 },
    });
    const noFile = await post("owner", { intent: "import" });
    expect(noFile.value).toMatchObject({ data: { error: "template_import_file_required" }, init: { status: 400 } });
    const staffOrgCopy = await post("staff", { intent: "duplicate", template_id: "builtin:soap", scope: "organization" });
    expect(staffOrgCopy.value).toMatchObject({ data: { error: "forbidden_role" }, init: { status: 403 } });
    const unknown = await post("owner", { intent: "explode" });
    expect(unknown.value).toMatchObject({ data: { error: "invalid_input" }, init: { status: 400 } });
  });

  it("imports a file and previews with the sample visit without storing anything", async () => {
    const document = {
      format: "murmur-template",
      version: 1,
      template: {
        name: "Imported",
        language: "en",
        sections: [
          {
            key: "vitals",
            title: "Vitals",
            kind: "vitals",
            header: "always",
            style: "bullets",
            verbosity: "concise",
            persistent: false,
          },
        ],
      },
    };
    const imported = await post(
      "clinician",
      { intent: "import", file: new File([JSON.stringify(document)], "t.json") },
      "/custom-templates",
    );
    expect(imported.thrown?.headers.get("location")).toMatch(/^\/custom-templates\?id=[0-9a-f-]{36}&notice=imported$/);
    const preview = await post("clinician", { intent: "preview", template: JSON.stringify(document.template) });
    expect(preview.value).toMatchObject({ intent: "preview", preview: { language: "en", sections: [{ key: "vitals" }] } });
  });

  it("a malformed id is the page 404; an unknown one shows the list with a notice", async () => {
    const run = (id: string) =>
      loader({
        request: new Request(`http://murmur.test/custom-templates?id=${id}`),
        context: contextAs("staff"),
        params: {},
      } as never);
    await expect(run("drop table")).rejects.toMatchObject({ init: { status: 404 } });
    const page = await run("00000000-0000-4000-8000-000000000000");
    expect(page).toMatchObject({ selected: null, missing: true });
  });
});
