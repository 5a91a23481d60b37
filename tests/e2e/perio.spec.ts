import { expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { collectPageErrors, waitForHydration } from "./helpers.ts";

// Issue 14 "Proof": keyboard entry of a full quadrant with auto-advance, flags and undo, saved and
// back after a reload; the chart in French on a 360 px screen.

async function patientWithExam(page: Page, name: string): Promise<{ patientId: string }> {
  // The session cookie and the current-organisation cookie authenticate the API calls.
  const created = await page.request.post("/api/patients", { data: { display_name: name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { patientId: id };
}

test("keyboard entry of a quadrant auto-advances, marks bleeding, undoes, autosaves; comparison flags a worse site", async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("perio"));
  const { patientId } = await patientWithExam(page, "Perio Keyboard");
  await page.goto(`/periodontal-chart?patient_id=${patientId}`);
  await waitForHydration(page);
  await page.getByTestId("perio-new-exam").click();
  await expect(page).toHaveURL(/exam=[0-9a-f-]{36}/);
  await waitForHydration(page);
  await page.getByTestId("numbering-universal").click();

  const grid = page.getByTestId("perio-grid");
  await grid.focus();
  // Upper right quadrant, facial: teeth 1–8 × DB, B, MB = 24 values; a 10+ entry at 3 MB; 1 MB bleeds.
  const values = [3, 2, 3, 4, 2, 3, 5, 3, 0, 2, 2, 2, 3, 2, 3, 2, 1, 2, 2, 1, 2, 3, 2, 3];
  for (const [i, v] of values.entries()) {
    if (i === 2) await page.keyboard.press("b");
    if (i === 8) {
      await page.keyboard.press("+");
      await page.keyboard.press("1");
      continue;
    }
    await page.keyboard.press(String(v));
  }
  await expect(page.getByTestId("cell-1-DB-pd")).toHaveText("3");
  await expect(page.getByTestId("cell-1-B-pd")).toHaveAttribute("data-bop", "true");
  await expect(page.getByTestId("cell-3-MB-pd")).toHaveText("11");
  await expect(page.getByTestId("cell-3-MB-pd")).toHaveAttribute("data-band", "deep");
  await expect(page.getByTestId("cell-3-DB-pd")).toHaveAttribute("data-band", "warn");
  await expect(page.getByTestId("cell-8-MB-pd")).toHaveText("3");
  // After the quadrant the cursor has crossed the midline to tooth 9, mesial first.
  await expect(page.getByTestId("perio-cursor")).toContainText("tooth 9 MB");
  // Undo the last value, type a different one.
  await page.keyboard.press("Backspace");
  await expect(page.getByTestId("cell-8-MB-pd")).toHaveText("");
  await page.keyboard.press("4");
  await expect(page.getByTestId("perio-save-state")).toHaveText("Saved");
  await expect(page.getByTestId("summary-pd4")).toContainText("4");
  await expect(page.getByTestId("summary-sites_measured")).toContainText("24");

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId("cell-8-MB-pd")).toHaveText("4");
  await expect(page.getByTestId("cell-3-MB-pd")).toHaveText("11");
  await expect(page.getByTestId("cell-1-B-pd")).toHaveAttribute("data-bop", "true");

  // A second exam copied forward, one deeper pocket, compared with the first: the site is flagged worse.
  await page.getByTestId("perio-new-exam").click();
  await expect(page.getByTestId("perio-exams").getByRole("link")).toHaveCount(2);
  await waitForHydration(page);
  await page.getByTestId("perio-grid").focus();
  await page.keyboard.press("6");
  await expect(page.getByTestId("perio-save-state")).toHaveText("Saved");
  await page.getByTestId("perio-compare-select").selectOption({ index: 1 });
  await expect(page.getByTestId("perio-compare-counts")).toContainText("1 sites worse by ≥ 2 mm");
  await expect(page.getByTestId("cell-1-DB-pd")).toHaveAttribute("data-change", "worse");
  expect(errors).toEqual([]);
});

test("the chart in French at 360 px: translated, the grid scrolls inside its card", async ({ page }) => {
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("perio-fr"));
  const { patientId } = await patientWithExam(page, "Patiente Parodonte");
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/fr/periodontal-chart?patient_id=${patientId}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Nouvel examen" }).click();
  await expect(page).toHaveURL(/\/fr\/periodontal-chart\?patient_id=.*&exam=/);
  await waitForHydration(page);
  await expect(page.getByTestId("perio-chart")).toContainText("récession positive, hyperplasie négative");
  await expect(page.getByTestId("perio-classification")).toContainText("Classification (AAP/EFP 2017)");
  await page.getByTestId("numbering-fdi").click();
  await page.getByTestId("perio-grid").focus();
  await page.keyboard.press("5");
  await expect(page.getByTestId("perio-cursor")).toContainText("dent 18");
  await expect(page.getByTestId("perio-last-entry")).toContainText("18 DV PS 5");
  // Nothing sticks out of the 360 px viewport; the grid scrolls on its own.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const grid = await page.getByTestId("perio-grid").evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(grid.scroll).toBeGreaterThan(grid.client);
  // The patient copy prints alone, in plain French (what the "Imprimer (patient)" button sets up).
  await page.evaluate(() => {
    document.body.dataset.perioPrint = "patient";
  });
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".perio-patient-copy")).toContainText("Votre bilan des gencives — Patiente Parodonte");
  await expect(page.getByTestId("perio-grid")).toBeHidden();
  expect(errors).toEqual([]);
});

test("printing: the print buttons set up the clinic and patient copies; both PDFs are real PDFs", async ({ page }) => {
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("perio-print"));
  const { patientId } = await patientWithExam(page, "Perio Print");
  await page.goto(`/periodontal-chart?patient_id=${patientId}`);
  await waitForHydration(page);
  await page.getByTestId("perio-new-exam").click();
  await expect(page).toHaveURL(/exam=/);
  await waitForHydration(page);
  await page.getByTestId("perio-grid").focus();
  for (const key of ["5", "b", "4", "3"]) await page.keyboard.press(key);
  await expect(page.getByTestId("perio-save-state")).toHaveText("Saved");

  // The browser's print dialog cannot be driven headless: record which copy each button prepared
  // at the moment it called window.print().
  await page.evaluate(() => {
    const w = window as unknown as { __printed: string[] };
    w.__printed = [];
    window.print = () => {
      w.__printed.push(document.body.dataset.perioPrint ?? "");
    };
  });
  await page.getByRole("button", { name: "Print clinic copy" }).click();
  await page.getByRole("button", { name: "Print patient copy" }).click();
  expect(await page.evaluate(() => (window as unknown as { __printed: string[] }).__printed)).toEqual(["clinic", "patient"]);
  // Afterwards the page is back to normal (no copy selected).
  expect(await page.evaluate(() => document.body.dataset.perioPrint ?? null)).toBeNull();

  // The clinic copy on paper: the chart and its panels, without the controls.
  await page.evaluate(() => {
    document.body.dataset.perioPrint = "clinic";
  });
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("perio-grid")).toBeVisible();
  await expect(page.getByTestId("perio-voice")).toBeHidden();
  await expect(page.locator(".perio-patient-copy")).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  for (const copy of ["clinic", "patient"]) {
    const href = await page.getByTestId(`perio-pdf-${copy}`).getAttribute("href");
    const pdf = await page.request.get(href ?? "");
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    const body = await pdf.body();
    expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(body.length).toBeGreaterThan(1000);
  }
  expect(errors).toEqual([]);
});

test("a periodontal-exam note reads the visit's chart, and its chart sentences lead back to the exam", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("perio-note"));
  await page.goto("/transcribing");
  await page.locator('input[name="new_patient_name"]').fill("Perio Note");
  await page.locator('select[name="language"]').selectOption("en");
  await page.locator('input[name="consent"]').check();
  await page.getByTestId("start-visit").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id") ?? "";
  const dictation = "[doctor] Pockets are about four millimetres upper right, some bleeding. Stage two, I think.";
  expect((await page.request.post(`/api/visits/${visitId}/transcript`, { data: { text: dictation } })).status()).toBe(201);
  const visit = (await (await page.request.get(`/api/visits/${visitId}`)).json()) as { patient: { id: string } };
  // Today's exam (the default date is today where the practice is: the visit's day).
  const exam = await page.request.post(`/api/patients/${visit.patient.id}/perio-exams`, { data: {} });
  const examId = ((await exam.json()) as { id: string }).id;
  const changes = [3, 14, 19, 30].flatMap((tooth) => [
    { tooth, site: "MB", field: "pd", value: 6 },
    { tooth, site: "MB", field: "gm", value: 1 },
    { tooth, site: "MB", field: "bop", value: true },
  ]);
  expect((await page.request.patch(`/api/perio-exams/${examId}`, { data: { version: 1, changes } })).status()).toBe(200);

  const created = await page.request.post(`/api/visits/${visitId}/notes`, { data: { template_id: "builtin:periodontal_exam" } });
  const noteId = ((await created.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/notes/${noteId}`)).json()) as { status: string }).status, {
      timeout: 30_000,
    })
    .toBe("draft");
  await page.goto(`/coding?id=${noteId}`);
  await waitForHydration(page);
  const fromChart = page.locator('[data-testid="note-sentence"][data-source="chart"]');
  await expect(fromChart.filter({ hasText: "Bleeding on probing at 4 of 192 sites" })).toBeVisible();
  await expect(fromChart.filter({ hasText: "Deepest sites: 3 MB 6 mm, 14 MB 6 mm, 19 MB 6 mm, 30 MB 6 mm." })).toBeVisible();
  await expect(fromChart.filter({ hasText: /^Periodontitis stage III/ })).toBeVisible();
  await page.getByTestId("note-chart-link").first().click();
  await expect(page).toHaveURL(new RegExp(`/periodontal-chart\\?patient_id=${visit.patient.id}&exam=${examId}$`));
  await expect(page.getByTestId("perio-chart")).toBeVisible();
  expect(errors).toEqual([]);
});
