import { type Browser, expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { axeViolations } from "./axe.ts";
import { acknowledgeInEditor } from "./checks-helpers.ts";
import { t, waitForHydration } from "./helpers.ts";

// Issue 27 "Proof": a draft with a contradiction → Sign disabled with the count → acknowledge each
// check → signed, the acknowledged checks kept on the record; the same without JavaScript (plain
// form posts); French at 360 px; axe clean. The dialogue makes the extractive engine write the
// issue's own contradictions: "Denies fever or shortness of breath" beside "a little short of
// breath", "not allergic to anything" beside penicillin.

const DIALOGUE_EN = [
  "[doctor] What brings you in today?",
  "[patient] I've had a cough for a week.",
  "[doctor] Any fever or shortness of breath?",
  "[patient] No fever.",
  "[patient] But I am a little short of breath when I climb stairs.",
  "[doctor] Any allergies?",
  "[patient] I'm not allergic to anything.",
  "[patient] Oh wait, I am allergic to penicillin, it gave me a rash.",
  "[doctor] Your lungs are clear. This is a viral bronchitis.",
].join("\n");

const DIALOGUE_FR = [
  "[doctor] Qu'est-ce qui vous amène ?",
  "[patient] Je tousse depuis une semaine.",
  "[doctor] Avez-vous de la fièvre ?",
  "[patient] Non, pas de fièvre.",
  "[doctor] Des allergies ?",
  "[patient] Je n'ai aucune allergie.",
  "[patient] Ah si, je suis allergique à la pénicilline.",
  "[doctor] Les poumons sont clairs. C'est une bronchite virale.",
].join("\n");

/** A visit with the dialogue as its transcript and a SOAP draft from it; returns the note id. */
async function draftNote(page: Page, language: "en" | "fr", dialogue: string): Promise<string> {
  const patient = await page.request.post("/api/patients", {
    data: { display_name: language === "fr" ? "Jeanne Martin" : "John Smith" },
  });
  const patientId = ((await patient.json()) as { id: string }).id;
  const visit = await page.request.post("/api/visits", {
    data: { patient_id: patientId, title: language === "fr" ? "Toux" : "Cough", language, consent: true },
  });
  const visitId = ((await visit.json()) as { id: string }).id;
  expect((await page.request.post(`/api/visits/${visitId}/transcript`, { data: { text: dialogue } })).status()).toBe(201);
  const created = await page.request.post(`/api/visits/${visitId}/notes`, { data: { template_id: "builtin:soap", language } });
  const noteId = ((await created.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/notes/${noteId}`)).json()) as { status: string }).status, {
      timeout: 30_000,
    })
    .toBe("draft");
  return noteId;
}

async function expectGate(page: Page, lang: "en" | "fr"): Promise<number> {
  const contradictions = page.locator('[data-testid="note-check"][data-kind="contradiction"]');
  await expect(contradictions.first()).toBeVisible();
  const open = await page.getByTestId("note-check").count();
  expect(open).toBeGreaterThan(0);
  await expect(page.getByTestId("note-checks-count")).toHaveText(
    t(lang, "checks", open === 1 ? "panel.count_one" : "panel.count_other").replace("{{count}}", String(open)),
  );
  const sign = page.getByTestId("note-sign");
  await expect(sign).toBeDisabled();
  await expect(sign).toContainText(String(open));
  return open;
}

/** Issue 27's sticky bar: in view without scrolling, its Sign is the gated one, and every check's link has a target. */
async function expectBarAndLinks(page: Page): Promise<void> {
  const bar = page.getByTestId("note-bar");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(bar).toBeInViewport();
  await expect(bar.getByTestId("note-sign")).toBeDisabled();
  await expect(bar.getByTestId("note-bar-to-check")).toBeVisible();
  const links = page.getByTestId("note-check-jump");
  expect(await links.count()).toBeGreaterThan(0);
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
    expect(await page.locator(`[id="${href.slice(1)}"]`).count(), href).toBe(1);
  }
  // A contradiction is about a sentence of the note: its link goes to that sentence, which gets focus.
  const jump = page
    .locator('[data-testid="note-check"][data-kind="contradiction"]')
    .first()
    .locator('[data-testid="note-check-jump"]');
  await expect(jump).toHaveAttribute("data-target", "sentence");
  const id = ((await jump.getAttribute("href")) ?? "").slice(1);
  await jump.click();
  await expect(page.locator(`[id="${id}"]`)).toBeFocused();
  await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious).toEqual([]);
}

test("a draft with a contradiction cannot be signed until each check is acknowledged", async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndConfirm(page, uniqueEmail("checks-en"));
  const noteId = await draftNote(page, "en", DIALOGUE_EN);
  // The API refuses too, with the open checks.
  const refused = await page.request.post(`/api/notes/${noteId}/sign`);
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { code: string }).code).toBe("unresolved_checks");

  await page.goto(`/coding?id=${noteId}`);
  await waitForHydration(page);
  await expectGate(page, "en");
  await expect(page.getByTestId("note-check").filter({ hasText: "A little short of breath" }).first()).toBeVisible();
  await expectBarAndLinks(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/checks-en-1280.png", fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "test-results/checks-bar-en-1280.png" });

  await acknowledgeInEditor(page);
  await expect(page.getByTestId("note-checks-count")).toHaveText(t("en", "checks", "panel.clear"));
  const sign = page.getByTestId("note-bar").getByTestId("note-sign");
  await expect(sign).toBeEnabled();
  page.once("dialog", (dialog) => void dialog.accept());
  await sign.click();
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-status", "signed");
  await expect(page.getByTestId("note-checks-acknowledged")).toBeVisible();
  await expect(page.getByTestId("note-checks-acknowledged")).toContainText("Acknowledged by");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/checks-en-signed-1280.png", fullPage: true });
});

test("without JavaScript: the open checks are listed with a form each, and the note signs once they are acknowledged", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signUpAndConfirm(page, uniqueEmail("checks-nojs"));
  const noteId = await draftNote(page, "en", DIALOGUE_EN);
  const noJs = await noScriptPage(browser, page);
  await noJs.goto(`/coding?id=${noteId}`);
  await expectGate(noJs, "en");
  // Without JavaScript the links are plain fragment links to ids that exist.
  for (const href of await noJs.getByTestId("note-check-jump").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
    expect(await noJs.locator(`[id="${href.slice(1)}"]`).count(), href).toBe(1);
  }
  await acknowledgeInEditor(noJs);
  await expect(noJs.getByTestId("note-sign")).toBeEnabled();
  await noJs.getByTestId("note-sign").click();
  await expect(noJs.getByTestId("note-editor")).toHaveAttribute("data-status", "signed");
  await expect(noJs.getByTestId("note-checks-acknowledged")).toBeVisible();
  await noJs.context().close();
});

test("French at 360 px: the checks, the disabled Sign and the acknowledgement fit and read in French", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 360, height: 800 });
  await signUpAndConfirm(page, uniqueEmail("checks-fr"), "/fr");
  const noteId = await draftNote(page, "fr", DIALOGUE_FR);
  await page.goto(`/fr/coding?id=${noteId}`);
  await waitForHydration(page);
  await expect(page.locator("#note-checks-title")).toContainText(t("fr", "checks", "panel.title"));
  await expectGate(page, "fr");
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectBarAndLinks(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/checks-fr-360.png", fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "test-results/checks-bar-fr-360.png" });
  await acknowledgeInEditor(page);
  await expect(page.getByTestId("note-bar").getByTestId("note-sign")).toBeEnabled();
  await expect(page.getByTestId("note-sign")).toHaveText(t("fr", "notes", "sign.submit"));
});

/** A second page of the same signed-in user with JavaScript off. */
async function noScriptPage(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    javaScriptEnabled: false,
    baseURL: new URL(page.url()).origin,
  });
  return context.newPage();
}
