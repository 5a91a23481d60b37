import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { axeViolations } from "./axe.ts";
import { collectPageErrors, LANGS, t, waitForHydration } from "./helpers.ts";

// Issue 29 "Patients": the /patients table (sort, search, no JavaScript needed), ⌘K to a
// patient's page, an MP3 uploaded from it that ends on an auto-drafted note, a visit started from
// it in French at 360 px; axe on both pages in three languages at 1280 and 360 px; screenshots.

const SHOTS = path.join(process.cwd(), "docs", "screenshots");

async function createPatients(page: Page): Promise<string> {
  const patients = [
    { display_name: "Amara Okonkwo", date_of_birth: "1984-03-09", external_id: "PMS-4410" },
    { display_name: "Bruno Delacroix", date_of_birth: "1951-11-30", external_id: "PMS-1002" },
    { display_name: "Carmen Ruiz", date_of_birth: "2001-06-15" },
  ];
  let first = "";
  for (const p of patients) {
    const res = await page.request.post("/api/patients", { data: p });
    expect(res.status()).toBe(201);
    first ||= ((await res.json()) as { id: string }).id;
  }
  return first;
}

/** A short spoken sentence as MP3 (espeak-ng, then ffmpeg): real audio for the real pipeline. */
function spokenMp3(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-patient-upload-"));
  const wav = path.join(dir, "visit.wav");
  const mp3 = path.join(dir, "visit.mp3");
  execFileSync("espeak-ng", ["-v", "en-us", "-s", "150", "-w", wav, "The patient reports a sore throat for three days."]);
  execFileSync("ffmpeg", ["-loglevel", "error", "-y", "-i", wav, "-b:a", "48k", mp3]);
  return mp3;
}

async function expectAxeClean(page: Page, what: string) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious, `${what} at ${width} px`).toEqual([]);
  }
}

test("patients table, ⌘K to a patient, an MP3 uploaded from the patient page ends on its draft note", async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("patients-page"));
  const amara = await createPatients(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The sidebar leads to the table: every patient, sorted by name.
  await page.goto("/dashboard");
  await waitForHydration(page);
  await page
    .getByRole("navigation", { name: t("en", "common", "nav.label") })
    .getByRole("link", { name: "Patients" })
    .click();
  await expect(page).toHaveURL(/\/patients$/);
  const rows = page.locator("table.ui-table tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId("patients-count")).toHaveText("3 patients");
  await expect(rows.first()).toContainText("Amara Okonkwo");
  // Sort by date of birth, newest first (two clicks), then search by external id.
  await page.getByRole("link", { name: /Date of birth/ }).click();
  await expect(page).toHaveURL(/sort=date_of_birth/);
  await page.getByRole("link", { name: /Date of birth/ }).click();
  await expect(page).toHaveURL(/sort=date_of_birth&dir=desc/);
  await expect(page.getByRole("columnheader", { name: /Date of birth/ })).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first()).toContainText("Carmen Ruiz");
  await page.getByRole("searchbox", { name: "Search patients" }).fill("pms-44");
  await page.getByRole("searchbox", { name: "Search patients" }).press("Enter");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("PMS-4410");
  await page.goto("/patients");
  await page.screenshot({ path: path.join(SHOTS, "patients.light.jpg"), type: "jpeg", quality: 80 });

  // ⌘K: a patient result opens the patient's page.
  await waitForHydration(page);
  await page.keyboard.press("Control+k");
  const search = page.getByRole("dialog").getByRole("combobox");
  await expect(search).toBeFocused();
  await search.pressSequentially("okonk");
  await expect(page.getByRole("dialog").getByRole("option", { name: /Amara Okonkwo/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/patients/${amara}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amara Okonkwo");
  await expect(page.getByTestId("patient-identity")).toContainText("PMS-4410");
  await expect(page.getByTestId("patient-identity")).toContainText("Not recorded");
  await expect(page.getByTestId("timeline-empty")).toBeVisible();
  await expect(page.getByRole("link", { name: "Periodontal exam" })).toHaveAttribute(
    "href",
    `/periodontal-chart?patient_id=${amara}`,
  );
  await expect(page.getByRole("link", { name: "Ask about this patient" })).toHaveAttribute(
    "href",
    `/records-qa?patient=${amara}`,
  );

  // Upload a recording: a new visit through the upload service, transcribed, its note drafted.
  const upload = page.getByTestId("patient-upload");
  await upload.locator('input[type="file"]').setInputFiles(spokenMp3());
  await upload.getByRole("combobox", { name: "Language spoken in the visit" }).selectOption("en");
  await upload.getByLabel("The patient agrees to this visit being recorded.").check();
  await upload.getByRole("button", { name: "Upload and transcribe" }).click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id") ?? "";
  // No Generate pressed: when the transcript is ready the visit page opens on the drafted note.
  await expect(page).toHaveURL(/\/coding\?id=[0-9a-f-]{36}$/, { timeout: 240_000 });
  const visit = (await (await page.request.get(`/api/visits/${visitId}`)).json()) as { note: { id: string } | null };
  expect(visit.note?.id).toBe(new URL(page.url()).searchParams.get("id"));

  await page.goto(`/patients/${amara}`);
  const entry = page.getByTestId("timeline-visit");
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId("timeline-note-status")).toHaveText(/^Note: (Generating|Draft)$/);
  await page.screenshot({ path: path.join(SHOTS, "patient.light.jpg"), type: "jpeg", quality: 80 });

  for (const { lang, prefix } of LANGS) {
    await page.goto(`${prefix}/patients`);
    await waitForHydration(page);
    await expectAxeClean(page, `${lang} /patients`);
    await page.goto(`${prefix}/patients/${amara}`);
    await waitForHydration(page);
    await expectAxeClean(page, `${lang} /patients/:id`);
  }
  expect(errors).toEqual([]);
});

test("in French at 360 px: the table works without JavaScript, and a visit starts from the patient page", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpAndConfirm(page, uniqueEmail("patients-fr"), "/fr");
  const amara = await createPatients(page);

  // Without JavaScript: sorting links and the search form are plain links and a GET form.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const plain = await noJs.newPage();
  await plain.setViewportSize({ width: 360, height: 800 });
  await plain.goto("/fr/patients");
  await plain.getByRole("link", { name: /Identifiant externe/ }).click();
  await expect(plain).toHaveURL(/\/fr\/patients\?sort=external_id$/);
  await expect(plain.locator("table.ui-table tbody tr").first()).toContainText("Bruno Delacroix");
  await plain.getByRole("searchbox").fill("carmen");
  await plain.getByRole("button", { name: t("fr", "patients", "search.submit") }).click();
  await expect(plain.locator("table.ui-table tbody tr")).toHaveCount(1);
  await expect(plain.getByTestId("patients-count")).toHaveText("1 patient");
  await plain.goto("/fr/patients");
  await plain.screenshot({ path: path.join(SHOTS, "patients.fr-360.jpg"), type: "jpeg", quality: 80, fullPage: true });
  await noJs.close();

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/fr/patients/${amara}`);
  await waitForHydration(page);
  await page.screenshot({ path: path.join(SHOTS, "patient.fr-360.jpg"), type: "jpeg", quality: 80, fullPage: true });
  const start = page.getByTestId("patient-start-visit");
  await start.getByRole("combobox", { name: t("fr", "app", "visits.start.language") }).selectOption("fr");
  await start.getByLabel(t("fr", "app", "visits.start.consent")).check();
  await start.getByRole("button", { name: "Commencer une consultation" }).click();
  await expect(page).toHaveURL(/\/fr\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  await page.goto(`/fr/patients/${amara}`);
  await expect(page.getByTestId("timeline-visit")).toHaveCount(1);
  await expect(page.getByTestId("timeline-visit")).toContainText(t("fr", "app", "visits.status.draft"));
});
