import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { collectPageErrors, waitForHydration } from "./helpers.ts";

// Issue 6 "Templates": duplicate the built-in SOAP note, rename a section, add one with fixed
// text, watch the live preview follow, save, reload (the edits are stored), export the JSON.
test("duplicate SOAP, edit sections with a live preview, save, reload, export", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("templates"));
  await page.goto("/custom-templates?id=builtin:soap&language=en");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "SOAP note", level: 2 })).toBeVisible();
  // Built-ins are read-only: their fields are disabled.
  await expect(page.getByTestId("section-editor").first().getByLabel("Title")).toBeDisabled();

  await page.getByRole("button", { name: "Duplicate to edit" }).click();
  await expect(page).toHaveURL(/[?&]notice=duplicated/);
  const copyId = new URL(page.url()).searchParams.get("id");
  expect(copyId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Copy of SOAP note", level: 2 })).toBeVisible();
  await waitForHydration(page);

  const preview = page.getByTestId("template-preview");
  const plan = page.locator('[data-testid="section-editor"][data-key="plan"]');
  await plan.getByLabel("Title").fill("Plan and follow-up");
  await expect(preview.locator('[data-key="plan"] h4')).toHaveText("Plan and follow-up");

  await page.getByRole("button", { name: "Add a section" }).click();
  const added = page.getByTestId("section-editor").last();
  await added.getByLabel("Title").fill("Consent");
  await expect(added).toHaveAttribute("data-key", "consent");
  await added.getByLabel("Fixed text").fill("Verbal consent to record the visit was obtained.");
  await added.getByLabel("Placeholders").fill("interpreter");
  await expect(preview.locator('[data-key="consent"] h4')).toHaveText("Consent");
  await expect(preview.locator('[data-key="consent"]')).toContainText("Verbal consent to record the visit was obtained.");
  await expect(preview.locator('[data-key="consent"]')).toContainText("[interpreter]");
  // The vitals placeholders are shown in brackets; instructions never are.
  await expect(preview.locator('[data-key="vitals"]')).toContainText("[blood pressure]");
  await expect(preview).not.toContainText("History of the present illness: onset");

  // The unsaved template drafted by the extractive engine on the sample visit, server-side.
  await page.getByRole("button", { name: "Preview with sample visit" }).click();
  const drafted = page.getByRole("article", { name: "Note drafted from the sample visit" });
  await expect(drafted.locator('[data-key="subjective"] h4')).toHaveText("Subjective");
  await expect(drafted).toContainText("152");

  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.locator('[data-notice="saved"]')).toBeVisible();
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator('[data-testid="section-editor"][data-key="plan"]').getByLabel("Title")).toHaveValue(
    "Plan and follow-up",
  );
  await expect(page.locator('[data-testid="section-editor"][data-key="consent"]').getByLabel("Fixed text")).toHaveValue(
    "Verbal consent to record the visit was obtained.",
  );
  await expect(page.locator('[data-scope="personal"]').getByRole("link", { name: "Copy of SOAP note" })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("template-export").click()]);
  const file = await download.path();
  const document = JSON.parse(fs.readFileSync(file, "utf8"));
  expect(document).toMatchObject({
    format: "murmur-template",
    version: 1,
    template: { name: "Copy of SOAP note", language: "en" },
  });
  const keys = document.template.sections.map((s: { key: string }) => s.key);
  expect(keys.at(-1)).toBe("consent");
  expect(document.template.sections.at(-1)).toMatchObject({
    title: "Consent",
    fixedText: "Verbal consent to record the visit was obtained.",
    placeholders: ["interpreter"],
  });
  expect(document.template.sections.find((s: { key: string }) => s.key === "plan").title).toBe("Plan and follow-up");
  // Built-in ids carry a colon: routed encoded or not, with the session and organisation cookies.
  for (const path of ["/api/templates/builtin%3Asoap/export?language=fr", "/api/templates/builtin:soap?language=es"]) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
  }
  expect((await (await page.request.get("/api/templates/builtin%3Asoap/export?language=fr")).json()).template.name).toBe(
    "Note SOAP",
  );
  expect(errors).toEqual([]);
});

test("a failed save keeps the edits and shows the translated error; 360 px wide without sideways scrolling", async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 360, height: 800 });
  await signUpAndConfirm(page, uniqueEmail("templates-narrow"));
  await page.goto("/fr/custom-templates?id=builtin:dental_exam&language=fr");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Dupliquer pour modifier" }).click();
  await expect(page).toHaveURL(/notice=duplicated/);
  await waitForHydration(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
  // Two sections with the same key: refused by the server, every edit still on screen.
  const sections = page.getByTestId("section-editor");
  await sections.nth(0).getByLabel("Titre", { exact: true }).fill("Motif modifié");
  await sections.nth(1).getByLabel("Clé").fill("chief_complaint");
  await page.getByRole("button", { name: "Enregistrer le modèle" }).click();
  await expect(
    page.locator('.templates-form [role="alert"][data-code="template_section_keys_duplicate"]:not([data-live])'),
  ).toBeVisible();
  await expect(sections.nth(0).getByLabel("Titre", { exact: true })).toHaveValue("Motif modifié");
  await expect(sections.nth(1).getByLabel("Clé")).toHaveValue("chief_complaint");
});
