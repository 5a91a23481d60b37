import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OrgBanners } from "#app/components/org/org-banners.tsx";
import {
  dismissPmsBanner,
  isPmsBannerDismissed,
  isPmsBannerEligible,
  pmsBannerStorageKey,
} from "#app/components/org/pms-banner-state.ts";
import { ORG_PLANS, ORG_PMS, type OrgRole } from "#app/db/schema.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { renderAt, textOf } from "./render.ts";

// The banners above every signed-in page: the trial (issue 4 "Plans and trial") and the
// practice-management announcement (SPEC §2 "Global UI", §6).

const DAY = 24 * 60 * 60 * 1000;

function org(overrides: Partial<MemberOrg> = {}): MemberOrg {
  return {
    id: "0b6f7a52-8a0e-4d8c-9d1f-3b0c5f1e2a11",
    name: "Cabinet Soleil",
    slug: "cabinet-soleil-abc123",
    kind: "practice",
    plan: "trial",
    pms: "none",
    timezone: "UTC",
    region: "us",
    trial_ends_at: new Date(Date.now() + 5 * DAY - 60_000).toISOString(),
    role: "owner",
    ...overrides,
  };
}

const render = (path: string, value: MemberOrg) => renderAt(path, createElement(OrgBanners, { org: value }));

describe("trial banner", () => {
  it("while the trial runs: a quiet count of the days left with a link to the plans", async () => {
    const html = await render("/dashboard", org());
    expect(html).toContain('data-testid="trial-days-left"');
    expect(textOf(html)).toContain("Days left in your trial: 5");
    expect(html).toContain('href="/settings/billing"');
    expect(html).not.toContain("trial-ended-banner");
  });

  it("once ended: owners are sent to choose a plan; everyone else is told to ask an owner (in the page's language)", async () => {
    const ended = { trial_ends_at: new Date(Date.now() - DAY).toISOString() };
    const owner = await render("/fr/dashboard", org(ended));
    expect(owner).toContain('data-testid="trial-ended-banner"');
    expect(textOf(owner)).toContain("L’essai de Cabinet Soleil est terminé.");
    expect(owner).toMatch(/href="\/fr\/settings\/billing"[^>]*>Choisir une formule/);
    for (const role of ["admin", "clinician", "staff"] as const satisfies OrgRole[]) {
      const html = await render("/es/dashboard", org({ ...ended, role }));
      expect(html, role).toContain('data-testid="trial-ended-banner"');
      expect(textOf(html), role).toContain("Pida a un propietario que elija un plan.");
      expect(html, role).not.toContain("trial-choose-plan");
    }
  });

  it("on a paid plan there is no trial banner at all, whatever trial_ends_at says", async () => {
    for (const plan of ["solo", "practice", "Clinic"] as const) {
      const html = await render("/dashboard", org({ plan, trial_ends_at: new Date(Date.now() - DAY).toISOString() }));
      expect(html, plan).not.toContain("trial-ended-banner");
      expect(html, plan).not.toContain("trial-days-left");
    }
  });
});

describe("practice-management banner", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is eligible exactly when the plan is not Clinic and the PMS is MacPractice", () => {
    for (const plan of ORG_PLANS) {
      for (const pms of ORG_PMS) {
        expect(isPmsBannerEligible({ plan, pms }), `${plan}/${pms}`).toBe(plan !== "Clinic" && pms === "macpractice");
      }
    }
  });

  it("is never in the server's HTML, so a dismissed banner cannot flash before the browser's storage is read", async () => {
    const html = await render("/dashboard", org({ pms: "macpractice", plan: "solo" }));
    expect(html).not.toContain("pms-banner");
  });

  it("remembers a dismissal per organisation in local storage, and survives storage being unavailable", () => {
    const store = new Map<string, string>();
    vi.stubGlobal("window", {
      localStorage: {
        getItem: (key: string) => store.get(key) ?? null,
        setItem: (key: string, value: string) => void store.set(key, value),
      },
    });
    const a = "11111111-1111-4111-8111-111111111111";
    const b = "22222222-2222-4222-8222-222222222222";
    expect(isPmsBannerDismissed(a)).toBe(false);
    dismissPmsBanner(a);
    expect(store.get(pmsBannerStorageKey(a))).toBe("1");
    expect(pmsBannerStorageKey(a)).toBe(`murmur-pms-banner-dismissed:${a}`);
    expect(isPmsBannerDismissed(a)).toBe(true);
    expect(isPmsBannerDismissed(b)).toBe(false);
    vi.stubGlobal("window", {
      localStorage: {
        getItem: () => {
          throw new Error("SecurityError");
        },
        setItem: () => {
          throw new Error("SecurityError");
        },
      },
    });
    expect(isPmsBannerDismissed(a)).toBe(false);
    expect(() => dismissPmsBanner(a)).not.toThrow();
  });
});
