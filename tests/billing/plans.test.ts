import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { ORG_PLANS } from "#app/db/schema.ts";
import { LOCALES } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";
import Pricing from "#app/routes/pricing.tsx";
import {
  canAddMember,
  canRecordVisit,
  isPaidPlan,
  PAID_PLANS,
  PLAN_CATALOGUE,
  PLAN_FEATURES,
  PLAN_ORDER,
  planFeatures,
  planHasFeature,
  TRIAL_DAYS,
} from "#app/services/billing/plans.ts";
import { renderAt, textOf } from "./render.ts";

// Issue 4 "Plans and trial": one catalogue drives /pricing, the billing page and enforcement.

describe("plan catalogue", () => {
  it("describes every plan the database accepts, in display order, and only paid plans can be chosen", () => {
    expect(Object.keys(PLAN_CATALOGUE).sort()).toEqual([...ORG_PLANS].sort());
    expect([...PLAN_ORDER].sort()).toEqual([...ORG_PLANS].sort());
    for (const plan of ORG_PLANS) expect(PLAN_CATALOGUE[plan].id).toBe(plan);
    expect(PAID_PLANS).toEqual(["solo", "practice", "Clinic"]);
    expect(isPaidPlan("trial")).toBe(false);
    expect(isPaidPlan("clinic")).toBe(false);
    expect(isPaidPlan("Clinic")).toBe(true);
  });

  it("the trial lasts as long as the database's create functions grant (14 days) and is free", () => {
    expect(TRIAL_DAYS).toBe(14);
    expect(PLAN_CATALOGUE.trial.monthlyPriceUsd).toBe(0);
  });

  it("paid plans grow: more members and visits, a higher price, Clinic unlimited and quoted", () => {
    const [solo, practice, clinic] = PAID_PLANS.map((p) => PLAN_CATALOGUE[p]);
    expect(solo?.maxMembers).toBe(1);
    expect((practice?.maxMembers ?? 0) > (solo?.maxMembers ?? 0)).toBe(true);
    expect((practice?.visitsPerMonth ?? 0) > (solo?.visitsPerMonth ?? 0)).toBe(true);
    expect((practice?.monthlyPriceUsd ?? 0) > (solo?.monthlyPriceUsd ?? 0)).toBe(true);
    expect(clinic).toMatchObject({ maxMembers: null, visitsPerMonth: null, monthlyPriceUsd: null });
  });

  it("features accumulate through included plans; the trial has all of Practice's", () => {
    expect(planFeatures("solo")).toEqual(["scribe", "chartingAndQa", "emailSupport"]);
    expect(planFeatures("practice")).toEqual(expect.arrayContaining([...planFeatures("solo"), "auditLog", "teamRoles"]));
    expect(planFeatures("trial")).toEqual(expect.arrayContaining(planFeatures("practice")));
    expect(planHasFeature("trial", "auditLog")).toBe(true);
    expect(planHasFeature("solo", "auditLog")).toBe(false);
    expect(planHasFeature("practice", "pmsIntegration")).toBe(false);
    expect(planHasFeature("Clinic", "pmsIntegration")).toBe(true);
    for (const plan of ORG_PLANS) for (const f of planFeatures(plan)) expect(PLAN_FEATURES).toContain(f);
  });

  it("limits: a member or a visit more is allowed strictly below the plan's number, always on Clinic", () => {
    expect(canAddMember("solo", 0)).toBe(true);
    expect(canAddMember("solo", 1)).toBe(false);
    expect(canAddMember("practice", 9)).toBe(true);
    expect(canAddMember("practice", 10)).toBe(false);
    expect(canAddMember("Clinic", 10_000)).toBe(true);
    expect(canRecordVisit("trial", 49)).toBe(true);
    expect(canRecordVisit("trial", 50)).toBe(false);
    expect(canRecordVisit("Clinic", 1e9)).toBe(true);
  });

  it("every plan and feature has its words in every language", () => {
    for (const locale of LOCALES) {
      const pricing = resources[locale].marketing.pricing;
      for (const plan of ORG_PLANS) {
        expect(pricing.plans[plan].name, `${locale} ${plan}`).toBeTruthy();
        expect(pricing.plans[plan].summary, `${locale} ${plan}`).toBeTruthy();
      }
      for (const feature of PLAN_FEATURES) expect(pricing.features[feature], `${locale} ${feature}`).toBeTruthy();
    }
  });
});

describe("/pricing", () => {
  it("shows Trial, Solo, Practice and Clinic with members, visits and price from the catalogue (en)", async () => {
    const html = await renderAt("/pricing", createElement(Pricing));
    expect(html.match(/<article class="plan"/g)).toHaveLength(4);
    expect([...html.matchAll(/data-plan="([^"]+)"/g)].map((m) => m[1])).toEqual([...PLAN_ORDER]);
    const text = textOf(html);
    expect(text).toContain(`Try Murmur free for ${TRIAL_DAYS} days`);
    expect(text).toContain(`Free for ${TRIAL_DAYS} days`);
    expect(text).toContain(`Up to ${PLAN_CATALOGUE.trial.maxMembers} members`);
    expect(text).toContain(`${PLAN_CATALOGUE.trial.visitsPerMonth} visits a month`);
    expect(text).toContain(`$${PLAN_CATALOGUE.solo.monthlyPriceUsd} / month`);
    expect(text).toContain("1 member");
    expect(text).toContain("1,500 visits a month");
    expect(text).toContain(`$${PLAN_CATALOGUE.practice.monthlyPriceUsd} / month`);
    expect(text).toContain("Unlimited members");
    expect(text).toContain("Everything in Practice");
    expect(text).toContain("Custom");
    expect(html).toMatch(/href="\/contact"[^>]*>Contact us/);
  });

  it("is translated, with numbers formatted for the language (fr, es)", async () => {
    const fr = textOf(await renderAt("/fr/pricing", createElement(Pricing)));
    expect(fr).toContain("Essai");
    expect(fr).toContain(`Gratuit pendant ${TRIAL_DAYS} jours`);
    expect(fr).toMatch(/1\s500 consultations par mois/);
    expect(fr).toMatch(/129\s\$US \/ mois/);
    expect(fr).toContain("Tout ce qu’inclut la formule Cabinet");
    const es = textOf(await renderAt("/es/pricing", createElement(Pricing)));
    expect(es).toContain("Prueba");
    expect(es).toContain("1500 visitas al mes");
    expect(es).toContain("Hasta 10 miembros");
    expect(es).toContain("Visitas ilimitadas");
  });
});
