import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as apiTemplate from "#app/routes/resources/api-template.ts";
import * as apiTemplateExport from "#app/routes/resources/api-template-export.ts";
import * as apiTemplates from "#app/routes/resources/api-templates.ts";
import { getBuiltinTemplate } from "#app/services/notes/templates/builtin/index.ts";
import { resolveTemplate } from "#app/services/notes/templates/templates.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { type Call, call, openVisitHarness, type VisitHarness, type Who } from "#tests/visits/harness.ts";

// The templates API end to end (docs/api.md "Templates") over a real database, bearer tokens and
// row-level security: the copy-on-edit rule, read-only built-ins, tenant isolation, import
// validation codes and the export → import round trip.

const soapEn = () => getBuiltinTemplate("builtin:soap", "en");

function content(name = "Clinic SOAP") {
  const soap = soapEn();
  if (!soap) throw new Error("no SOAP");
  return { name, language: "en", description: "Ours", sections: soap.sections };
}

describeEachDatabase("templates API", (target) => {
  let h: VisitHarness;
  const list = (c: Omit<Call, "method" | "path"> = {}) => call(h, apiTemplates, { method: "GET", path: "/api/templates", ...c });
  const post = (json: unknown, as: Who = "owner") => call(h, apiTemplates, { method: "POST", path: "/api/templates", json, as });
  const one = (method: string, id: string, c: Omit<Call, "method" | "path" | "params"> = {}) =>
    call(h, apiTemplate, { method, path: `/api/templates/${encodeURIComponent(id)}`, params: { id }, ...c });
  const auditActions = async (entityId: string) =>
    (
      await sql<{
        action: string;
        actor_id: string;
      }>`select action, actor_id from public.audit_log where entity_id = ${entityId} order by id`.execute(h.db.kysely)
    ).rows;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists the eight built-ins in the asked language, then organisation and personal templates", async () => {
    const orgTpl = await post({ ...content("Org template"), scope: "organization" });
    expect(orgTpl.status).toBe(201);
    const mine = await post(content("Clinician's own"), "clinician");
    expect(mine.status).toBe(201);
    const res = await list({ as: "clinician", path: "/api/templates?language=fr" } as never);
    expect(res.status).toBe(200);
    const builtins = res.body.filter((t: { scope: string }) => t.scope === "builtin");
    expect(builtins.map((t: { id: string }) => t.id)).toEqual([
      "builtin:soap",
      "builtin:history_physical",
      "builtin:progress",
      "builtin:dental_exam",
      "builtin:periodontal_exam",
      "builtin:procedure",
      "builtin:referral",
      "builtin:patient_instructions",
    ]);
    expect(builtins[0].name).toBe("Note SOAP");
    // language=fr filters stored templates to French ones: both are English.
    expect(res.body).toHaveLength(8);
    const all = await list({ as: "clinician" });
    const stored = all.body.filter((t: { scope: string }) => t.scope !== "builtin");
    expect(stored.map((t: { id: string; scope: string }) => [t.id, t.scope])).toEqual([
      [orgTpl.body.id, "organization"],
      [mine.body.id, "personal"],
    ]);
    expect(stored[0].editable_in_place).toBe(false);
    // Staff do not see the clinician's personal template.
    const staff = await list({ as: "staff" });
    expect(staff.body.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    expect(staff.body.map((t: { id: string }) => t.id)).toContain(orgTpl.body.id);
  });

  it("reads a built-in in each language with the same keys", async () => {
    const en = await one("GET", "builtin:dental_exam");
    const es = await one("GET", "builtin:dental_exam", { path: "/api/templates/builtin:dental_exam?language=es" } as never);
    expect(en.status).toBe(200);
    expect(es.body.language).toBe("es");
    expect(es.body.name).toBe("Exploración dental");
    expect(es.body.sections.map((s: { key: string }) => s.key)).toEqual(en.body.sections.map((s: { key: string }) => s.key));
    expect((await one("GET", "builtin:nope")).body.code).toBe("template_not_found");
  });

  it("built-ins are read-only: PUT and DELETE are 409 builtin_read_only", async () => {
    const put = await one("PUT", "builtin:soap", { json: content() });
    expect(put.status).toBe(409);
    expect(put.body.code).toBe("builtin_read_only");
    expect(put.body.message).toMatch(/duplicate/i);
    expect((await one("DELETE", "builtin:soap")).status).toBe(409);
  });

  it("a clinician's edit of an organisation template makes a personal copy; owners and admins edit in place", async () => {
    const org = await post({ ...content("Practice SOAP"), scope: "organization" }, "admin");
    expect(org.status).toBe(201);
    const edited = { ...content("Practice SOAP (mine)") };
    edited.sections = edited.sections.map((s) => (s.key === "plan" ? { ...s, title: "Plan and follow-up" } : s));

    const byClinician = await one("PUT", org.body.id, { as: "clinician", json: edited });
    expect(byClinician.status).toBe(200);
    expect(byClinician.body.copied).toBe(true);
    expect(byClinician.body.id).not.toBe(org.body.id);
    const copy = await one("GET", byClinician.body.id, { as: "clinician" });
    expect(copy.body).toMatchObject({ scope: "personal", based_on: org.body.id, name: "Practice SOAP (mine)" });
    expect(copy.body.sections.find((s: { key: string }) => s.key === "plan").title).toBe("Plan and follow-up");
    const original = await one("GET", org.body.id, { as: "clinician" });
    expect(original.body.name).toBe("Practice SOAP");

    const byStaff = await one("PUT", org.body.id, { as: "staff", json: content("Staff edit") });
    expect(byStaff.body.copied).toBe(true);
    expect((await one("GET", org.body.id)).body.name).toBe("Practice SOAP");
    expect((await one("DELETE", org.body.id, { as: "staff" })).body.code).toBe("forbidden_role");
    // The owner cannot see, edit or delete the clinician's personal copy.
    expect((await one("GET", byClinician.body.id, { as: "owner" })).status).toBe(404);
    expect((await one("PUT", byClinician.body.id, { as: "owner", json: content() })).status).toBe(404);

    const byOwner = await one("PUT", org.body.id, { as: "owner", json: content("Practice SOAP v2") });
    expect(byOwner.body).toEqual({ id: org.body.id, copied: false });
    expect((await one("GET", org.body.id, { as: "staff" })).body.name).toBe("Practice SOAP v2");
    expect((await auditActions(org.body.id)).map((r) => r.action)).toEqual(["template.created", "template.updated"]);
    expect((await auditActions(byClinician.body.id)).map((r) => [r.action, r.actor_id])).toEqual([
      ["template.created", h.a.users.clinician.id],
    ]);
  });

  it("only owners and admins create organisation templates", async () => {
    const res = await post({ ...content(), scope: "organization" }, "clinician");
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden_role");
  });

  it("another organisation's template is 404 for every verb", async () => {
    const theirs = await call(h, apiTemplates, { method: "POST", path: "/api/templates", json: content("B's"), as: "outsider" });
    expect(theirs.status).toBe(201);
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await one(method, theirs.body.id, { json: method === "PUT" ? content() : undefined });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe("template_not_found");
    }
    const dup = await post({ duplicate_of: theirs.body.id });
    expect(dup.status).toBe(404);
    expect(
      await resolveTemplate({ db: h.db, actor: { userId: h.a.users.owner.id }, orgId: h.a.orgId }, theirs.body.id, "en"),
    ).toBeNull();
    expect((await one("GET", "not-a-uuid")).status).toBe(404);
  });

  it("duplicates a built-in in a language, then deletes the copy (archived, still resolvable)", async () => {
    const dup = await post({ duplicate_of: "builtin:soap", language: "fr", name: "Ma note SOAP" }, "clinician");
    expect(dup.status).toBe(201);
    const got = await one("GET", dup.body.id, { as: "clinician" });
    expect(got.body).toMatchObject({ language: "fr", based_on: "builtin:soap", scope: "personal", name: "Ma note SOAP" });
    expect(got.body.sections).toEqual(getBuiltinTemplate("builtin:soap", "fr")?.sections);
    expect((await one("DELETE", dup.body.id, { as: "clinician" })).status).toBe(204);
    expect((await one("GET", dup.body.id, { as: "clinician" })).status).toBe(404);
    const args = { db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId };
    expect((await resolveTemplate(args, dup.body.id, "en"))?.name).toBe("Ma note SOAP");
    expect((await resolveTemplate(args, "builtin:referral", "es"))?.name).toBe("Carta de derivación");
    expect(await auditActions(dup.body.id)).toHaveLength(2);
  });

  describe("import validation", () => {
    const doc = (template: unknown, extra: Record<string, unknown> = {}) => ({
      import: { format: "murmur-template", version: 1, template, ...extra },
    });
    const cases: [string, unknown, string][] = [
      ["wrong format", { import: { format: "other", version: 1, template: content() } }, "template_format_unsupported"],
      [
        "future version",
        { import: { format: "murmur-template", version: 2, template: content() } },
        "template_format_unsupported",
      ],
      [
        "bad key",
        doc({ ...content(), sections: [{ ...content().sections[0], key: "Bad Key" }] }),
        "template_section_key_invalid",
      ],
      [
        "duplicate keys",
        doc({ ...content(), sections: [content().sections[0], content().sections[0]] }),
        "template_section_keys_duplicate",
      ],
      ["no sections", doc({ ...content(), sections: [] }), "template_sections_count"],
      [
        "41 sections",
        doc({ ...content(), sections: Array.from({ length: 41 }, (_, i) => ({ ...content().sections[0], key: `s${i}` })) }),
        "template_sections_count",
      ],
      ["empty name", doc({ ...content(), name: "  " }), "template_name_invalid"],
      [
        "bad kind",
        doc({ ...content(), sections: [{ ...content().sections[0], kind: "astrology" }] }),
        "template_section_kind_invalid",
      ],
      [
        "fixed text too long",
        doc({ ...content(), sections: [{ ...content().sections[0], fixedText: "x".repeat(4001) }] }),
        "template_text_too_long",
      ],
      ["not an object", { import: "hello" }, "template_format_unsupported"],
    ];
    for (const [name, body, code] of cases) {
      it(`${name} → 400 ${code}`, async () => {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(code);
      });
    }

    it("malformed JSON and unknown fields are 400 too", async () => {
      expect((await post("{nope")).body.code).toBe("bad_json");
      expect((await post({ duplicate_of: "builtin:soap", colour: "red" })).body.code).toBe("validation_failed");
      expect((await one("PUT", "00000000-0000-4000-8000-000000000000", { json: { name: "x" } })).body.code).toBe(
        "template_language_invalid",
      );
    });
  });

  it("export → import round-trips, for a built-in and a stored template", async () => {
    const exported = await call(h, apiTemplateExport, {
      method: "GET",
      path: "/api/templates/builtin:periodontal_exam/export?language=es",
      params: { id: "builtin:periodontal_exam" },
    });
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ format: "murmur-template", version: 1 });
    expect(exported.body.template.based_on).toBe("builtin:periodontal_exam");
    const imported = await post({ import: exported.body });
    expect(imported.status).toBe(201);
    const again = await call(h, apiTemplateExport, {
      method: "GET",
      path: `/api/templates/${imported.body.id}/export`,
      params: { id: imported.body.id },
    });
    expect(again.body).toEqual(exported.body);
    expect((await one("GET", imported.body.id)).body.sections).toEqual(
      getBuiltinTemplate("builtin:periodontal_exam", "es")?.sections,
    );
  });

  it("needs a signed-in member of the organisation", async () => {
    expect((await list({ as: "anonymous" })).status).toBe(401);
    expect((await list({ orgId: null })).body.code).toBe("org_required");
    expect((await list({ as: "outsider", orgId: h.a.orgId })).status).toBe(404);
  });
});
