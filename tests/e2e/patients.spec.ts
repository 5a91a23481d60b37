import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { collectPageErrors, waitForHydration } from "./helpers.ts";

// Issue 5 "Pages to list, search and open them": on /dashboard, create a patient, search for it,
// start a visit for it, find the visit under the patient and open it on /transcribing.
test("create a patient, search it, start and open its visit; 360 px wide", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("patients"));
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/dashboard");
  await waitForHydration(page);

  const externalId = `PMS-${Date.now()}`;
  await page.getByText("New patient", { exact: true }).click();
  const form = page.getByTestId("new-patient");
  await form.getByLabel("Name").fill("Marguerite Okonkwo-Lind");
  await form.getByLabel("Date of birth").fill("1984-03-09");
  await form.getByRole("combobox", { name: "Sex" }).selectOption("female");
  await form.getByLabel("External id (practice management system)").fill(externalId);
  await form.getByLabel("Notes").fill("Hard of hearing in the left ear.");
  await form.getByRole("button", { name: "Add patient" }).click();

  await expect(page).toHaveURL(/\/dashboard\?q=Marguerite\+Okonkwo-Lind&created=[0-9a-f-]{36}$/);
  const created = page.locator('[data-testid="patient-results"] > li[aria-current="true"]');
  await expect(created).toContainText("Marguerite Okonkwo-Lind");
  await expect(created).toContainText("Patient created.");
  await expect(created).toContainText(`External id ${externalId}`);
  await expect(created).toContainText("No visits yet");

  // A name the form refuses: a translated message, what was typed is kept.
  await page.getByText("New patient", { exact: true }).click();
  await form.getByLabel("Name").fill("Duplicate Person");
  await form.getByLabel("External id (practice management system)").fill(externalId);
  await form.getByRole("button", { name: "Add patient" }).click();
  await expect(form.getByRole("alert")).toHaveText("Another patient of this organization already has this external id.");
  await expect(form.getByLabel("Name")).toHaveValue("Duplicate Person");

  // Start a visit for the patient from the dashboard's link.
  await page.getByTestId("start-visit-link").click();
  await expect(page).toHaveURL(/\/transcribing$/);
  const start = page.getByTestId("start-visit");
  await start.getByRole("combobox", { name: "Patient", exact: true }).selectOption({ label: "Marguerite Okonkwo-Lind" });
  await start.getByLabel("Reason for the visit").fill("Follow-up of hearing loss");
  await start.getByRole("combobox", { name: "Language spoken in the visit" }).selectOption("fr");
  await start.getByLabel("The patient agrees to this visit being recorded.").check();
  await start.getByRole("button", { name: "Start the visit" }).click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id");

  // Search by the start of the external id, in French: the patient, its visit, a /fr link to it.
  await page.goto(`/fr/dashboard?q=${encodeURIComponent(externalId.slice(0, -3).toLowerCase())}`);
  await waitForHydration(page);
  const found = page.locator('[data-testid="patient-results"] > li', { hasText: "Marguerite Okonkwo-Lind" });
  await expect(found).toBeVisible();
  await expect(found).toContainText("Féminin");
  await found.getByText("Dernières consultations (1)").click();
  const visitLink = found.getByRole("link", { name: "Follow-up of hearing loss" });
  await expect(visitLink).toHaveAttribute("href", `/fr/transcribing?visit_id=${visitId}`);
  await expect(found.locator(`[data-visit-id="${visitId}"]`)).toContainText("Langue : Français");
  await expect(found.locator(`[data-visit-id="${visitId}"]`)).toContainText("Prête à enregistrer");

  // The recent visits list has it too; nothing scrolls sideways at 360 px.
  const recent = page.getByTestId("dashboard-visits").locator(`[data-visit-id="${visitId}"]`);
  await expect(recent).toContainText("Follow-up of hearing loss — Marguerite Okonkwo-Lind");
  await expect(recent).toContainText("Clinicien : Ana Ruiz");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await visitLink.click();
  await expect(page).toHaveURL(`/fr/transcribing?visit_id=${visitId}`);
  await expect(page.getByText("Marguerite Okonkwo-Lind").first()).toBeVisible();

  // The refused duplicate is the one failed request the browser logs (its 409 is the answer).
  expect(errors.filter((e) => !/status of 409 \(Conflict\).*\/dashboard\.data/.test(e))).toEqual([]);

  // Without JavaScript the search still works: it is a plain GET form.
  const noScript = await browser.newContext({
    storageState: await page.context().storageState(),
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
  });
  const plain = await noScript.newPage();
  await plain.goto("/dashboard");
  await plain.getByRole("searchbox", { name: "Search patients" }).fill("okonkwo");
  await plain.getByRole("button", { name: "Search", exact: true }).click();
  await expect(plain).toHaveURL(/\/dashboard\?q=okonkwo$/);
  await expect(plain.getByTestId("patient-search-summary")).toHaveText("1 patient found for “okonkwo”");
  await noScript.close();
});
