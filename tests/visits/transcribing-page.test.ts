import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loader } from "#app/routes/app/transcribing.tsx";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { pageContextIn, seedVisit, type VisitHarness } from "./harness.ts";

// ADR 7 on a real page: /transcribing?visit_id= of a visit in another of the user's organisations
// switches to it (redirect with ?org=); a visit of an organisation they are not in is a 404.
describeEachDatabase("/transcribing deep links", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    const { openVisitHarness } = await import("./harness.ts");
    h = await openVisitHarness(target);
    // The clinician of A also works in B.
    await sql`insert into public.org_members (org_id, user_id, role) values (${h.b.orgId}, ${h.a.users.clinician.id}, 'clinician')`.execute(
      h.db.kysely,
    );
  });
  afterAll(async () => {
    await h.close();
  });

  const contextIn = (orgId: string, user: { id: string; email: string }, role: MemberOrg["role"]) =>
    pageContextIn(h, orgId, user, role);

  async function open(
    visitId: string,
    orgId: string,
    user: { id: string; email: string },
    role: MemberOrg["role"] = "clinician",
  ) {
    const request = new Request(`http://murmur.test/fr/transcribing?visit_id=${visitId}`);
    try {
      return { value: await loader({ request, context: contextIn(orgId, user, role), params: {} } as never) };
    } catch (thrown) {
      return { thrown };
    }
  }

  it("opens a visit of the current organisation", async () => {
    const visitId = await seedVisit(h);
    const { value } = await open(visitId, h.a.orgId, h.a.users.clinician);
    expect(value).toMatchObject({ kind: "visit", visit: { id: visitId, status: "draft" } });
  });

  it("switches to the visit's organisation when the user is a member there", async () => {
    const visitInB = await seedVisit(h, { orgId: h.b.orgId });
    const { thrown } = await open(visitInB, h.a.orgId, h.a.users.clinician);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("location")).toBe(`/fr/transcribing?visit_id=${visitInB}&org=${h.b.orgId}`);
  });

  it("is a 404 for a visit of an organisation the user is not in, and for an unknown id", async () => {
    const visitInB = await seedVisit(h, { orgId: h.b.orgId });
    for (const id of [visitInB, "00000000-0000-4000-8000-000000000000"]) {
      const { thrown } = await open(id, h.a.orgId, h.a.users.staff, "staff");
      expect(thrown).toMatchObject({ data: { kind: "invalid" }, init: { status: 404 } });
    }
  });

  it("tells an admin that visits are not part of their role", async () => {
    const { value } = await open(await seedVisit(h), h.a.orgId, h.a.users.admin, "admin");
    expect(value).toEqual({ kind: "forbidden" });
  });
});
