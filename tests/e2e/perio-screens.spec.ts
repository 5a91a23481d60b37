import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { LANGS, waitForHydration } from "./helpers.ts";

// Issue 14 (and issue 11's bar for any page on the design system): an open, charted exam — grid,
// voice panel, summary, classification, comparison — in en/fr/es at 1280 and 360 px, with no
// serious or critical axe violation and nothing scrolling sideways but the grid itself. Screenshots
// land in the test's output folder (test-results/perio-screens-*) for a person to look at.

test("the open chart passes axe and fits at 1280 and 360 px in en, fr and es", async ({ page }, info) => {
  test.setTimeout(120_000);
  await signUpAndConfirm(page, uniqueEmail("perio-screens"));
  const created = await page.request.post("/api/patients", { data: { display_name: "Perio Screens" } });
  const { id } = (await created.json()) as { id: string };
  await page.request.post(`/api/patients/${id}/perio-exams`, { data: { exam_date: "2025-06-01" } });
  const exam = await page.request.post(`/api/patients/${id}/perio-exams`, { data: { copy_from: "latest" } });
  const examId = ((await exam.json()) as { id: string }).id;
  const changes = [
    { tooth: 1, field: "missing", value: true },
    { tooth: 3, site: "B", field: "furcation", value: 2 },
    { tooth: 24, field: "mobility", value: 1 },
    ...[2, 3, 4, 14, 19, 30].flatMap((tooth) => [
      { tooth, site: "DB", field: "pd", value: 5 },
      { tooth, site: "DB", field: "gm", value: 2 },
      { tooth, site: "DB", field: "bop", value: true },
      { tooth, site: "B", field: "pd", value: 3 },
      { tooth, site: "MB", field: "pd", value: 6 },
      { tooth, site: "MB", field: "gm", value: 1 },
    ]),
  ];
  const saved = await page.request.patch(`/api/perio-exams/${examId}`, { data: { version: 1, changes } });
  expect(saved.status()).toBe(200);

  const found: string[] = [];
  for (const { lang, prefix } of LANGS) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${prefix}/periodontal-chart?patient_id=${id}&exam=${examId}`);
      await waitForHydration(page);
      await expect(page.getByTestId("perio-grid")).toBeVisible();
      await page.screenshot({ path: info.outputPath(`perio-${lang}-${width}.png`), fullPage: true });
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      found.push(
        ...results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${lang} @${width}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      );
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) found.push(`${lang} @${width}: the page scrolls sideways by ${overflow}px`);
    }
  }
  expect(found).toEqual([]);
});
