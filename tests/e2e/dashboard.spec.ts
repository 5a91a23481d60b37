import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { collectPageErrors, t, waitForHydration } from "./helpers.ts";

// Issue 16: the morning dashboard in French at 360 px — today's visits by stage, a range change,
// the CSV of the figures; then the same page in Spanish without JavaScript (charts are server SVG,
// each with its table). Visits come through the API, as an integration would create them.
test("dashboard: today, range change and CSV in French at 360 px; Spanish without JavaScript", async ({
  page,
  browser,
  baseURL,
}) => {
  // Generous: the machine the suite runs on may be shared; every wait below still has its own limit.
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("dashboard"));
  const patient = await page.request.post("/api/patients", { data: { display_name: "Patient Tableau" } });
  expect(patient.status(), await patient.text()).toBe(201);
  const patientId = ((await patient.json()) as { id: string }).id;
  const visitIds: string[] = [];
  for (const title of ["Toux", "Contrôle"]) {
    const visit = await page.request.post("/api/visits", {
      data: { patient_id: patientId, title, language: "fr", consent: true },
    });
    expect(visit.status(), await visit.text()).toBe(201);
    visitIds.push(((await visit.json()) as { id: string }).id);
  }
  const imported = await page.request.post(`/api/visits/${visitIds[0]}/transcript`, { data: { text: "[doctor] Bonjour." } });
  expect(imported.status()).toBe(201);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/fr/dashboard");
  await waitForHydration(page);
  const today = page.getByTestId("dashboard-today");
  await expect(today.getByRole("heading", { name: t("fr", "dashboard", "today.heading") })).toBeVisible();
  await expect(today.locator('[data-status="ready_for_note"] dd')).toHaveText("1");
  await expect(today.locator('[data-status="recording"] dd')).toHaveText("1");
  await expect(today.getByRole("link", { name: "Toux — Patient Tableau" })).toHaveAttribute(
    "href",
    `/fr/transcribing?visit_id=${visitIds[0]}`,
  );
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Range: the last 7 days; the visits chart's table has one row a day, today's with 2 visits.
  await page.getByTestId("range-select").selectOption("7");
  await page.getByRole("button", { name: t("fr", "dashboard", "filters.apply") }).click();
  await expect(page).toHaveURL(/range=7/, { timeout: 20_000 });
  const visitsChart = page.getByTestId("chart-visits");
  await expect(visitsChart.locator("svg rect")).toHaveCount(14);
  await visitsChart.getByText(t("fr", "dashboard", "figures.showTable")).click();
  await expect(visitsChart.locator("tbody tr")).toHaveCount(7);
  await expect(visitsChart.locator("tbody tr").last().locator("td").first()).toHaveText("2");
  // The legend hides a series once hydrated.
  await visitsChart.getByRole("button", { name: /Notes signées/ }).click();
  await expect(visitsChart.locator("svg rect")).toHaveCount(7);
  // For the screenshot review of each chart (issue 16 "Proof").
  await visitsChart.screenshot({ path: "test-results/dashboard-chart-visits-fr.png" });
  await page.getByTestId("chart-minutes").screenshot({ path: "test-results/dashboard-chart-minutes-fr.png" });
  await today.screenshot({ path: "test-results/dashboard-today-fr.png" });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("csv-series").click()]);
  const csv = await (await download.createReadStream()).toArray();
  const lines = Buffer.concat(csv).toString("utf8").trim().split(/\r\n/);
  expect(lines[0]).toBe("date,visits,recorded_minutes,notes_signed,coding_coded,coding_exported");
  expect(lines).toHaveLength(8);
  expect(lines.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2},2,0,0,0,0$/);
  expect(errors).toEqual([]);

  // Spanish, no JavaScript: the same figures, server-rendered.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), baseURL });
  const plain = await noJs.newPage();
  await plain.setViewportSize({ width: 360, height: 800 });
  await plain.goto("/es/dashboard?range=7");
  await expect(plain.getByRole("heading", { name: t("es", "dashboard", "today.heading") })).toBeVisible();
  await expect(plain.getByTestId("chart-visits").locator("svg rect")).toHaveCount(14);
  await expect(plain.getByTestId("chart-visits").locator("tbody tr").last().locator("td").first()).toHaveText("2");
  await plain.getByTestId("dashboard-figures").screenshot({ path: "test-results/dashboard-figures-es-nojs.png" });
  await noJs.close();
});
