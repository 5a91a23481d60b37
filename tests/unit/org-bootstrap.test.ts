import { describe, expect, it } from "vitest";
import { type BootstrapOrg, bootstrapOrgs, chooseOrg } from "#app/services/org-context/bootstrap.ts";
import { createOrgStore } from "#app/services/org-context/org-store.ts";

// SPEC §4 "Organisation bootstrap": the one state machine the server middleware and the browser
// store share. Dependencies are plain functions over an in-memory list of organisations.
const personal = { id: "p", kind: "personal" };
const alpha = { id: "a", kind: "practice" };
const beta = { id: "b", kind: "practice" };

function deps(initial: BootstrapOrg[], options: { ensureFails?: boolean; loadFails?: boolean; hang?: boolean } = {}) {
  const orgs = [...initial];
  const calls = { load: 0, ensure: 0 };
  return {
    calls,
    orgs,
    deps: {
      timeoutMs: 200,
      loadOrgs: async () => {
        calls.load++;
        if (options.hang) await new Promise(() => {});
        if (options.loadFails) throw new Error("membership query failed");
        return [...orgs];
      },
      ensurePersonal: async () => {
        calls.ensure++;
        if (options.ensureFails) throw new Error("rpc failed");
        if (!orgs.some((o) => o.kind === "personal")) orgs.push(personal);
        return personal.id;
      },
    },
  };
}

describe("chooseOrg: last used → persisted → personal → first", () => {
  it("takes the first preferred id that is still accessible", () => {
    expect(chooseOrg([personal, alpha, beta], ["b", "a"])?.id).toBe("b");
    expect(chooseOrg([personal, alpha], ["gone", "a"])?.id).toBe("a");
  });
  it("falls back to the personal organisation, then the first", () => {
    expect(chooseOrg([alpha, personal], ["gone", null])?.id).toBe("p");
    expect(chooseOrg([alpha, beta], [undefined])?.id).toBe("a");
    expect(chooseOrg([alpha, beta], [], "b")?.id).toBe("b");
    expect(chooseOrg([], ["a"])).toBeUndefined();
  });
});

describe("bootstrapOrgs", () => {
  it("keeps a remembered organisation without writing anything", async () => {
    const d = deps([personal, alpha]);
    const result = await bootstrapOrgs(d.deps, ["a"]);
    expect(result).toMatchObject({ status: "ready", current: { id: "a" } });
    expect(d.calls).toEqual({ load: 1, ensure: 0 });
  });

  it("creates the personal organisation once when none loads (the emergency creation)", async () => {
    const d = deps([]);
    const result = await bootstrapOrgs(d.deps, [null]);
    expect(result).toMatchObject({ status: "ready", current: { id: "p" } });
    expect(d.calls.ensure).toBe(1);
  });

  it("ensures the personal organisation first when the browser asks (ensureEagerly)", async () => {
    const d = deps([alpha]);
    const result = await bootstrapOrgs({ ...d.deps, ensureEagerly: true }, ["gone"]);
    expect(result).toMatchObject({ status: "ready", current: { id: "p" } });
    expect(d.calls.ensure).toBe(1);
  });

  it("tolerates a failing personal-organisation call when organisations exist", async () => {
    const d = deps([alpha], { ensureFails: true });
    const result = await bootstrapOrgs(d.deps, ["gone"]);
    expect(result).toMatchObject({ status: "ready", current: { id: "a" } });
  });

  it("reports 'No accessible organizations found' when nothing loads and creation fails", async () => {
    const d = deps([], { ensureFails: true });
    expect(await bootstrapOrgs(d.deps, [])).toEqual({
      status: "error",
      code: "org_none_accessible",
      message: "No accessible organizations found. Please contact support.",
    });
    expect(d.calls.ensure).toBe(1);
  });

  it("reports 'Failed to initialize organization context' when memberships cannot load", async () => {
    const d = deps([alpha], { loadFails: true });
    expect(await bootstrapOrgs(d.deps, [])).toMatchObject({
      status: "error",
      code: "org_bootstrap_failed",
      message: "Failed to initialize organization context",
    });
  });

  it("times out after timeoutMs", async () => {
    const d = deps([alpha], { hang: true });
    const started = Date.now();
    expect(await bootstrapOrgs({ ...d.deps, timeoutMs: 50 }, [])).toMatchObject({ code: "org_bootstrap_timeout" });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("browser organisation store", () => {
  const org = (id: string, kind: "personal" | "practice", role: "owner" | "staff") => ({
    id,
    name: id,
    slug: id,
    kind,
    plan: "trial" as const,
    pms: "none" as const,
    timezone: "UTC",
    region: "us",
    trial_ends_at: null,
    role,
  });

  function browser(list: ReturnType<typeof org>[]) {
    const stored = new Map<string, string>();
    const cookies: string[] = [];
    const requests: string[] = [];
    const store = createOrgStore({
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        const path = String(input);
        requests.push(`${init?.method ?? "GET"} ${path}`);
        if (path === "/api/orgs") return Response.json(list);
        return Response.json({ id: list.find((o) => o.kind === "personal")?.id });
      }) as typeof fetch,
      storage: {
        getItem: (k) => stored.get(k) ?? null,
        setItem: (k, v) => void stored.set(k, v),
        removeItem: (k) => void stored.delete(k),
      },
      setCookie: (value) => cookies.push(value),
      timeoutMs: 500,
      shouldSkip: () => false,
    });
    return { store, stored, cookies, requests };
  }

  it("bootstraps over the API, preferring the persisted id, and remembers the choice", async () => {
    const list = [org("p", "personal", "owner"), org("a", "practice", "staff")];
    const b = browser(list);
    b.stored.set("murmur-org", "a");
    await b.store.bootstrap();
    expect(b.store.getState()).toMatchObject({ status: "ready", currentOrgId: "a", rolesByOrg: { p: "owner", a: "staff" } });
    expect(b.requests).toEqual(["POST /api/orgs/personal", "GET /api/orgs"]);
    expect(b.cookies.at(-1)).toMatch(/^murmur-org=a; Path=\/;/);
  });

  it("ignores a switch to the current or an empty id, and to an organisation it does not list", async () => {
    const b = browser([org("p", "personal", "owner"), org("a", "practice", "staff")]);
    await b.store.bootstrap();
    const before = b.cookies.length;
    expect(b.store.switchTo("p")).toBe(false);
    expect(b.store.switchTo("")).toBe(false);
    expect(b.store.switchTo("z")).toBe(false);
    expect(b.cookies.length).toBe(before);
    expect(b.store.switchTo("a")).toBe(true);
    expect(b.store.getState().currentOrgId).toBe("a");
  });

  it("persist() writes the hydrated organisation back after the migration cleanup removed its cookie and key", () => {
    const list = [org("p", "personal", "owner"), org("a", "practice", "staff")];
    const b = browser(list);
    b.store.persist();
    expect(b.cookies).toEqual([]);
    b.store.hydrate(list[1] as (typeof list)[number], list);
    b.stored.delete("murmur-org");
    b.cookies.length = 0;
    b.store.persist();
    expect(b.stored.get("murmur-org")).toBe("a");
    expect(b.cookies).toEqual([expect.stringMatching(/^murmur-org=a; Path=\/;/)]);
  });

  it("a bootstrap overtaken by a server-resolved page or a sign-out writes nothing when it returns", async () => {
    const list = [org("p", "personal", "owner"), org("a", "practice", "staff")];
    const b = browser(list);
    // Sign-in bootstrap in flight; meanwhile the invitation is accepted and the next page hydrates "a".
    const pending = b.store.bootstrap();
    b.store.hydrate(list[1] as (typeof list)[number], list);
    await pending;
    expect(b.store.getState()).toMatchObject({ status: "ready", currentOrgId: "a" });
    expect(b.cookies.at(-1)).toMatch(/^murmur-org=a; Path=\/;/);
    expect(b.stored.get("murmur-org")).toBe("a");

    const c = browser(list);
    const late = c.store.bootstrap();
    c.store.clear();
    await late;
    expect(c.store.getState().status).toBe("idle");
    expect(c.cookies).toEqual([]);
  });

  it("retry clears id, list and roles, then bootstraps again; clear() empties it", async () => {
    const b = browser([org("p", "personal", "owner")]);
    await b.store.bootstrap();
    const seen: string[] = [];
    b.store.subscribe(() => seen.push(b.store.getState().status));
    await b.store.retry();
    expect(seen).toEqual(["idle", "loading", "ready"]);
    b.store.clear();
    expect(b.store.getState()).toEqual({ status: "idle", currentOrgId: null, orgs: [], rolesByOrg: {}, error: null });
  });
});
