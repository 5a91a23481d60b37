import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import * as importRoute from "#app/routes/resources/api-code-systems-import.ts";
import * as searchRoute from "#app/routes/resources/api-codes-search.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness, type Who } from "#tests/visits/harness.ts";

// docs/api.md "Coding": a licensed CPT/CDT (or newer HCPCS) file imported into an organisation-
// private code system — preview, a report per bad row, nothing half-imported, a replace that never
// leaves the organisation without a code set, owners and admins only, RLS across organisations.
// The codes below are made up in the CDT shape: Murmur ships and tests no licensed content.

describeEachDatabase("code system import", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  const upload = (fields: Record<string, string>, file: string | Uint8Array<ArrayBuffer> | null, as: Who = "owner") => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (file !== null) form.set("file", new Blob([file]), "codes.csv");
    const body = new Response(form);
    return body.arrayBuffer().then((bytes) =>
      call(h, importRoute, {
        method: "POST",
        path: "/api/code-systems/import",
        body: new Uint8Array(bytes),
        headers: { "content-type": body.headers.get("content-type") ?? "", "content-length": String(bytes.byteLength) },
        as,
      }),
    );
  };
  const active = () =>
    withActor(h.db, { userId: h.a.users.clinician.id, orgId: h.a.orgId }, (trx) =>
      trx
        .selectFrom("org_code_systems")
        .select(["id", "version", "row_count"])
        .where("system", "=", "cdt")
        .where("active", "=", true)
        .execute(),
    );

  const GOOD =
    'code,short_descriptor,long_descriptor\nD9901,Test exam A,Test long descriptor A\nD9902,Test exam B,"Test, long B"\n';

  it("previews, imports, and replaces a version atomically", async () => {
    const preview = await upload({ system: "cdt", version: "2026", preview: "true" }, GOOD);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      rows: 2,
      errors: [],
      sample: [{ code: "D9901" }, { code: "D9902", long: "Test, long B" }],
    });
    expect(await active()).toEqual([]);
    const first = await upload({ system: "cdt", version: "2026" }, GOOD);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ rows: 2, replaced: null });
    const second = await upload({ system: "cdt", version: "2027" }, "D9903\tTab exam\tTab long descriptor\n");
    expect(second.body).toMatchObject({ rows: 1, replaced: first.body.id });
    expect(await active()).toEqual([{ id: second.body.id, version: "2027", row_count: 1 }]);
    // Search reads the active version only, for the caller's organisation only.
    const search = (q: string, as: Who = "staff") =>
      call(h, searchRoute, { method: "GET", path: `/api/codes/search?system=cdt&q=${q}`, as });
    expect((await search("D99")).body).toEqual({
      system: "cdt",
      version: "2027",
      results: [{ code: "D9903", description: "Tab long descriptor", billable: true }],
    });
    expect((await search("tab%20long")).body.results).toHaveLength(1);
    expect((await search("D99", "outsider")).body).toEqual({ system: "cdt", version: null, results: [] });
  });

  it("refuses bad files whole with a report per row, and changes nothing", async () => {
    const bad = await upload({ system: "cdt", version: "2028" }, "D9911,A,B\nX12,Bad,Code\nD9911,Dup,Dup\nD9912\nD9913,,\n");
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      code: "invalid_rows",
      rows: 1,
      errors: [
        { line: 2, code: "X12", error: "bad_code" },
        { line: 3, code: "D9911", error: "duplicate_code" },
        { line: 4, code: null, error: "wrong_columns" },
        { line: 5, code: "D9913", error: "missing_descriptor" },
      ],
    });
    expect((await upload({ system: "cdt", version: "2028" }, new Uint8Array([0xff, 0xfe, 0x00, 0x81]))).body.code).toBe(
      "invalid_file",
    );
    expect((await upload({ system: "cdt", version: "2028" }, "\n\n")).body.code).toBe("empty_file");
    expect((await upload({ system: "cdt", version: "20x8" }, GOOD)).body.code).toBe("validation_failed");
    expect((await upload({ system: "icd10cm", version: "2028" }, GOOD)).status).toBe(400);
    expect((await upload({ system: "cdt", version: "2028" }, null)).body.code).toBe("file_required");
    const huge = await call(h, importRoute, {
      method: "POST",
      path: "/api/code-systems/import",
      body: new Uint8Array(16),
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(50 * 1024 * 1024) },
    });
    expect(huge.body.code).toBe("file_too_large");
    const notMultipart = await call(h, importRoute, {
      method: "POST",
      path: "/api/code-systems/import",
      json: { system: "cdt" },
    });
    expect(notMultipart.status).toBe(415);
    expect((await active()).map((r) => r.version)).toEqual(["2027"]);
  });

  it("owners and admins import; clinicians and staff 403; another organisation never sees the codes", async () => {
    expect((await upload({ system: "cdt", version: "2029" }, GOOD, "admin")).status).toBe(201);
    expect((await upload({ system: "cdt", version: "2029" }, GOOD, "clinician")).body.code).toBe("forbidden_role");
    expect((await upload({ system: "cdt", version: "2029" }, GOOD, "staff")).status).toBe(403);
    const other = { userId: h.b.owner.id, orgId: h.b.orgId };
    expect(await withActor(h.db, other, (trx) => trx.selectFrom("org_codes").select("code").execute())).toEqual([]);
    expect(await withActor(h.db, other, (trx) => trx.selectFrom("org_code_systems").select("id").execute())).toEqual([]);
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) => trx.deleteFrom("org_codes").execute()),
    ).rejects.toThrow();
  });
});
