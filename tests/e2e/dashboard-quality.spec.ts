import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { acknowledgeAllChecks } from "./checks-helpers.ts";
import { collectPageErrors, t, waitForHydration } from "./helpers.ts";

// Issue 16 "Proof": the Quality tab and the coding figures of the dashboard. A note is generated,
// edited and signed, its coding case decided (one suggestion accepted, the rest rejected with the
// coding page's reasons) and marked coded — through the API, as the pages would. Then, in Spanish
// at 360 px: the clinician filter, today's "coded" visit and the coding chart, the Quality tab
// (acceptance, most-edited section with its diff, coding suggestions and reasons), its PHI-free
// export and an axe scan; in French without JavaScript, the same tab server-rendered.

const DIALOGUE = [
  "[doctor] What brings you in today?",
  "[patient] I have had a cough for two weeks. I have essential hypertension.",
  "[doctor] Any fever?",
  "[patient] No fever.",
  "[doctor] This looks like an acute bronchitis.",
].join("\n");

interface Line {
  id: string;
  state: string;
}

async function signedAndCodedNote(page: Page): Promise<void> {
  const patient = await page.request.post("/api/patients", { data: { display_name: "Paciente Calidad" } });
  expect(patient.status(), await patient.text()).toBe(201);
  const patientId = ((await patient.json()) as { id: string }).id;
  const visit = await page.request.post("/api/visits", {
    data: { patient_id: patientId, title: "Tos", language: "en", consent: true },
  });
  expect(visit.status(), await visit.text()).toBe(201);
  const visitId = ((await visit.json()) as { id: string }).id;
  expect((await page.request.post(`/api/visits/${visitId}/transcript`, { data: { text: DIALOGUE } })).status()).toBe(201);
  const created = await page.request.post(`/api/visits/${visitId}/notes`, {
    data: { template_id: "builtin:soap", language: "en" },
  });
  const noteId = ((await created.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/notes/${noteId}`)).json()) as { status: string }).status, {
      timeout: 30_000,
    })
    .toBe("draft");
  const note = (await (await page.request.get(`/api/notes/${noteId}`)).json()) as {
    sections: { key: string; text: string }[];
    version: number;
  };
  const first = note.sections[0];
  if (!first) throw new Error("the note has no section");
  // The clinician rewrites the first section before signing: the Quality tab's most-edited section.
  const edited = await page.request.put(`/api/notes/${noteId}`, {
    data: {
      sections: [{ key: first.key, text: `${first.text} Rewritten by the clinician after the visit.` }],
      version: note.version,
    },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  await acknowledgeAllChecks(page, noteId);
  expect((await page.request.post(`/api/notes/${noteId}/sign`)).status()).toBe(200);

  const opened = await page.request.post(`/api/notes/${noteId}/coding`);
  expect(opened.status(), await opened.text()).toBeLessThan(300);
  const coding = (await opened.json()) as { id: string; lines: Line[] };
  const [keep, ...rest] = coding.lines.filter((l) => l.state === "suggested");
  if (!keep) throw new Error("the engine suggested nothing");
  const operations = [
    { op: "accept", line_id: keep.id },
    ...rest.map((l) => ({ op: "reject", line_id: l.id, reason: "not_documented" })),
  ];
  const decided = await page.request.patch(`/api/coding/cases/${coding.id}`, { data: { operations, status: "coded" } });
  expect(decided.status(), await decided.text()).toBe(200);
  return;
}

test("dashboard Quality tab and coding figures in Spanish at 360 px; French without JavaScript", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("dash-quality"), "/es");
  await signedAndCodedNote(page);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/es/dashboard");
  await waitForHydration(page);
  // Filter by clinician: the only clinician is the owner who signed up.
  const clinician = page.getByTestId("clinician-select");
  const ownerId = await clinician.locator("option").nth(1).getAttribute("value");
  expect(ownerId).toMatch(/^[0-9a-f-]{36}$/);
  await clinician.selectOption(ownerId ?? "");
  await page.getByRole("button", { name: t("es", "dashboard", "filters.apply") }).click();
  await expect(page).toHaveURL(new RegExp(`clinician_id=${ownerId}`), { timeout: 20_000 });
  const today = page.getByTestId("dashboard-today");
  await expect(today.locator('[data-status="coded"] dd')).toHaveText("1");
  await expect(today.locator('[data-status="coded"] dt')).toHaveText(t("es", "dashboard", "today.status.coded"));
  const codingChart = page.getByTestId("chart-coding");
  await codingChart.getByText(t("es", "dashboard", "figures.showTable")).click();
  // Today's row: one case coded, none exported.
  await expect(codingChart.locator("tbody tr").last().locator("td")).toHaveText(["1", "0"]);
  await expect(page.getByTestId("dashboard-queues").locator('[data-queue="coding"] .dash-count')).toHaveText("0");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await codingChart.screenshot({ path: "test-results/dashboard-chart-coding-es-360.png" });

  // The Quality tab, a link that keeps the filters.
  await page
    .getByTestId("dashboard-tabs")
    .getByRole("link", { name: t("es", "dashboard", "tabs.quality") })
    .click();
  await expect(page).toHaveURL(/tab=quality/, { timeout: 20_000 });
  const quality = page.getByTestId("dashboard-quality");
  await expect(quality.getByRole("heading", { name: t("es", "dashboard", "quality.heading") })).toBeVisible();
  await expect(quality.locator('[data-figure="acceptance"] dd')).toHaveText(/%/);
  const sections = page.getByTestId("quality-sections");
  await expect(sections.locator("li")).toHaveCount(1);
  await sections.getByText(t("es", "dashboard", "quality.example")).click();
  await expect(page.getByTestId("quality-diff").locator("ins")).toContainText("Rewritten by the clinician");
  const coding = page.getByTestId("quality-coding");
  await expect(coding.locator('[data-figure="coding-casesCoded"] dd')).toHaveText("1");
  await expect(coding.locator('[data-figure="coding-accepted"] dd')).toHaveText("1");
  const reasons = page.getByTestId("quality-reject-reasons");
  await expect(reasons.locator("tbody tr").first().locator("td").first()).toHaveText(t("es", "coding", "reasons.not_documented"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByTestId("chart-quality").screenshot({ path: "test-results/dashboard-chart-quality-es-360.png" });
  await coding.screenshot({ path: "test-results/dashboard-quality-coding-es-360.png" });
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // The export: counts and codes, no patient, no text.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("quality-export").click()]);
  const body = Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8");
  const exported = JSON.parse(body) as { scope: string; coding: { cases_coded: number; reject_reasons: Record<string, number> } };
  expect(exported.scope).toBe("clinician");
  expect(exported.coding.cases_coded).toBe(1);
  expect(exported.coding.reject_reasons.not_documented).toBeGreaterThan(0);
  expect(body).not.toMatch(/Paciente Calidad|Rewritten|cough/i);
  expect(errors).toEqual([]);

  // French, no JavaScript, at 1280 px: the tab and its figures come from the server.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), baseURL });
  const plain = await noJs.newPage();
  await plain.setViewportSize({ width: 1280, height: 900 });
  await plain.goto("/fr/dashboard?tab=quality");
  await expect(
    plain.getByTestId("dashboard-quality").getByRole("heading", { name: t("fr", "dashboard", "quality.heading") }),
  ).toBeVisible();
  await expect(plain.getByTestId("quality-coding").locator('[data-figure="coding-casesCoded"] dd')).toHaveText("1");
  await expect(plain.getByTestId("quality-reject-reasons").locator("td").first()).toHaveText(
    t("fr", "coding", "reasons.not_documented"),
  );
  await plain.getByTestId("dashboard-quality").screenshot({ path: "test-results/dashboard-quality-fr-1280-nojs.png" });
  await plain.goto("/fr/dashboard?range=7");
  await plain.getByTestId("chart-coding").screenshot({ path: "test-results/dashboard-chart-coding-fr-1280-nojs.png" });
  await noJs.close();
});
