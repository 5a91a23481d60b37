import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { waitForHydration } from "./helpers.ts";

// Issue 12 "The interface", SPEC §2: the floating Ask Murmur widget on a real server and database.
// Drag against click (5 px), the 8 px clamp, remembered position and drawer width, the bottom sheet
// at 360 px, Enter / Shift+Enter, citation chips with '+N more', the source modal and its links,
// filter chips, French and Spanish; axe with the drawer open; screenshots at 1280 and 360 px.

// Outside Playwright's outputDir, which every run empties.
const SHOTS = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), "murmur-ask-widget"));

type Visit = { id: string; title: string };

/** A patient with `count` visits whose transcripts mention lisinopril (real index, real answers). */
async function seed(page: Page, language: "en" | "fr" | "es", count: number): Promise<{ patient: string; visits: Visit[] }> {
  const orgs = (await (await page.request.get("/api/orgs")).json()) as { id: string }[];
  const headers = { "x-org-id": orgs[0]?.id ?? "" };
  const post = async (url: string, data: unknown) => {
    const res = await page.request.post(url, { data, headers });
    expect(res.status(), url).toBeLessThan(300);
    return (await res.json()) as { id: string };
  };
  const patient = await post("/api/patients", { display_name: "Maria Lopez" });
  const lines = {
    en: (i: number) =>
      `[doctor] We started lisinopril ${i + 5} mg once a day for blood pressure. [patient] My knee hurts on stairs.`,
    fr: (i: number) =>
      `[médecin] Nous commençons le lisinopril ${i + 5} mg une fois par jour pour la tension. [patient] J'ai mal au genou.`,
    es: (i: number) =>
      `[médico] Empezamos lisinopril ${i + 5} mg una vez al día para la presión. [paciente] Me duele la rodilla.`,
  }[language];
  const visits: Visit[] = [];
  for (let i = 0; i < count; i++) {
    const title = `Checkup ${i + 1}`;
    const visit = await post("/api/visits", {
      patient_id: patient.id,
      title,
      language,
      consent: true,
      visit_date: `2026-0${1 + (i % 3)}-1${i % 10}`,
    });
    await post(`/api/visits/${visit.id}/transcript`, { text: lines(i) });
    visits.push({ id: visit.id, title });
  }
  return { patient: patient.id, visits };
}

async function center(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not visible");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

/** Presses the pointer on the element, moves by (dx, dy) in steps, releases. */
async function drag(page: Page, locator: Locator, dx: number, dy: number) {
  const { x, y } = await center(locator);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

async function seriousAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("widget: drag or click, remembered place and width, chat with Enter/Shift+Enter, chips, source modal, filters", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpAndConfirm(page, uniqueEmail("ask-widget"));
  const { visits } = await seed(page, "en", 9);
  await page.goto("/dashboard");
  await waitForHydration(page);

  const button = page.getByRole("button", { name: "Open Ask Murmur" });
  await expect(button).toHaveAttribute("title", "Open Ask Murmur");
  const start = (await center(button)).box;
  expect(start.width).toBe(48);
  expect(start.x + 48).toBeLessThanOrEqual(1280 - 8);

  // Under 5 px of movement is a click: the drawer opens and the button has not moved.
  await drag(page, button, 3, 2);
  const drawer = page.getByTestId("ask-drawer");
  await expect(drawer).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  expect((await button.boundingBox())?.x).toBe(start.x);

  // A real drag moves it and opens nothing; far past the edge it stays 8 px inside.
  await drag(page, button, -200, -150);
  await expect(drawer).toBeHidden();
  const moved = await button.boundingBox();
  expect(moved?.x).toBeCloseTo(start.x - 200, -1);
  expect(moved?.y).toBeCloseTo(start.y - 150, -1);
  await drag(page, button, 3000, -3000);
  const corner = await button.boundingBox();
  expect(corner).toMatchObject({ x: 1280 - 48 - 8, y: 8 });
  await drag(page, button, -300, 200);
  const kept = await button.boundingBox();
  await page.reload();
  await waitForHydration(page);
  expect(await button.boundingBox()).toEqual(kept);

  // The drawer: 600 px by default, resized and remembered, never under 360 px; a link to the full page.
  await button.click();
  await expect(drawer).toBeVisible();
  expect((await drawer.boundingBox())?.width).toBe(600);
  await expect(drawer.getByRole("link", { name: "Open full page" })).toHaveAttribute("href", "/records-qa");
  await drag(page, page.getByTestId("ask-resize"), -120, 0);
  expect((await drawer.boundingBox())?.width).toBeCloseTo(720, -1);
  await drag(page, page.getByTestId("ask-resize"), 2000, 0);
  expect((await drawer.boundingBox())?.width).toBe(360);
  await drag(page, page.getByTestId("ask-resize"), -5000, 0);
  expect((await drawer.boundingBox())?.width).toBe(Math.floor(1280 * 0.92));
  await drag(page, page.getByTestId("ask-resize"), 1177 - 650, 0);
  const width = (await drawer.boundingBox())?.width ?? 0;
  expect(width).toBeGreaterThan(600);
  await page.reload();
  await waitForHydration(page);
  await button.click();
  expect((await drawer.boundingBox())?.width).toBe(width);

  // Empty chat: the placeholder and four suggestions.
  const chat = page.getByTestId("chat-panel");
  await expect(chat).toContainText("Messages will appear here");
  await expect(chat.getByTestId("suggestions").getByRole("button")).toHaveCount(4);
  await page.screenshot({ path: path.join(SHOTS, "widget-en-1280-empty.png") });

  // Shift+Enter is a new line; Enter sends; the Ask button waits for a question.
  const input = chat.getByTestId("ask-input");
  const ask = chat.getByRole("button", { name: "Ask", exact: true });
  await expect(ask).toBeDisabled();
  await input.click();
  await page.keyboard.type("What dose of lisinopril");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("did we start?");
  await expect(input).toHaveValue("What dose of lisinopril\ndid we start?");
  await expect(chat.getByTestId("chat-message")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(input).toHaveValue("");
  const messages = chat.getByTestId("chat-message");
  await expect(messages).toHaveCount(2);
  await expect(messages.first()).toContainText("You");
  await expect(messages.first().locator("time")).toHaveText(/\d{1,2}:\d{2}/);
  const answer = messages.nth(1);
  await expect(answer).toContainText("Assistant");
  await expect(answer.locator(".rag-answer")).toContainText(/lisinopril \d+ mg/);
  await expect(chat.getByTestId("latency")).toHaveText(/Answered in \d+ ms/);
  const chips = answer.getByTestId("citation-chip");
  expect(await chips.count()).toBeGreaterThan(0);
  await expect(chips.first()).toHaveAttribute("data-table", "transcriptions");
  await expect(chips.first()).toHaveAttribute("title", /lisinopril/);
  await page.screenshot({ path: path.join(SHOTS, "widget-en-1280-answer.png") });

  // The source modal: real GET /api/rag/source, title, visit, table and field, content, links.
  const firstTitle =
    (await chips.first().textContent())
      ?.replace(/^\[1\]\s*/, "")
      .replace("Transcription", "")
      .trim() ?? "";
  await chips.first().click();
  const modal = page.getByTestId("source-modal");
  await expect(modal.getByRole("heading", { name: firstTitle })).toBeVisible();
  await expect(modal.getByTestId("source-field")).toContainText("Transcription · text");
  await expect(modal.locator("blockquote")).toContainText("lisinopril");
  const visitId = visits.find((v) => v.title === firstTitle)?.id;
  await expect(modal.getByRole("link", { name: "Open source" })).toHaveAttribute(
    "href",
    new RegExp(`^/transcribing\\?visit_id=${visitId}&r=\\d{13}(&start=\\d+)?$`),
  );
  await page.screenshot({ path: path.join(SHOTS, "widget-en-1280-source.png") });
  await modal.getByRole("button", { name: "Close" }).last().click();
  await expect(modal).toBeHidden();
  await expect(drawer).toBeVisible();

  // Filters: chips for the record type and the open date range, each removable.
  await chat.getByRole("button", { name: "Filters" }).click();
  await chat.getByRole("checkbox", { name: "Transcriptions" }).check();
  await chat.getByRole("textbox", { name: "From", exact: true }).fill("2026-01-01");
  const filterChips = chat.getByTestId("filter-chips");
  await expect(filterChips).toContainText("Transcriptions");
  await expect(filterChips).toContainText("Jan 1, 2026 → today");
  await chat.getByRole("textbox", { name: "To", exact: true }).fill("2026-02-28");
  await expect(filterChips).toContainText("Jan 1, 2026 → Feb 28, 2026");
  await chat.getByRole("button", { name: /Remove filter: Jan 1, 2026/ }).click();
  await expect(filterChips).not.toContainText("→");
  await chat.getByRole("button", { name: "Remove filter: Transcriptions" }).click();
  await expect(filterChips.locator("li")).toHaveCount(0);

  // '+N more': the extractive answerer cites at most three sentences, so this answer is built from
  // the real search endpoint's nine hits for the same question (real ids: the modal loads them).
  const orgs = (await (await page.request.get("/api/orgs")).json()) as { id: string }[];
  const hits = await page.request.post("/api/rag/search", {
    data: { query: "lisinopril", limit: 9 },
    headers: { "x-org-id": orgs[0]?.id ?? "" },
  });
  const found = (await hits.json()) as { citations: unknown[] };
  expect(found.citations).toHaveLength(9);
  await page.route("**/api/rag/ask", (route) =>
    route.fulfill({
      json: { answer: "Lisinopril [1] [9]", citations: found.citations, usedFallback: false, support: null, scope: "records" },
    }),
  );
  await input.fill("lisinopril everywhere");
  await ask.click();
  const last = messages.nth(3);
  await expect(last.getByTestId("citation-chip")).toHaveCount(9);
  await expect(last.getByTestId("citation-chip").filter({ visible: true })).toHaveCount(6);
  const more = last.getByRole("button", { name: "+3 more" });
  await more.click();
  await expect(more).toHaveAttribute("aria-expanded", "true");
  await expect(last.getByTestId("citation-chip").filter({ visible: true })).toHaveCount(9);
  await expect(last.getByTestId("more-citations").getByRole("heading").first()).toHaveText(/^Checkup \d · \w{3} \d{1,2}, 2026$/);
  await last.getByTestId("more-citations").getByTestId("citation-chip").first().click();
  await expect(modal.locator("blockquote")).toContainText("lisinopril");
  await page.keyboard.press("Escape");
  await page.unroute("**/api/rag/ask");

  // Copy puts the last answer on the clipboard.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await chat.getByRole("button", { name: "Copy last answer" }).click();
  await expect(chat.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Lisinopril [1] [9]");

  expect(await seriousAxe(page)).toEqual([]);

  // Not on /records-qa; back elsewhere, a new mount starts an empty chat.
  await drawer.getByRole("link", { name: "Open full page" }).click();
  await expect(page).toHaveURL(/\/records-qa$/);
  await expect(page.getByRole("button", { name: "Open Ask Murmur" })).toHaveCount(0);
  await page.goto("/dashboard");
  await waitForHydration(page);
  await button.click();
  await expect(page.getByTestId("chat-message")).toHaveCount(0);
});

test("widget at 360 px: a full-height bottom sheet, axe clean, in English, French and Spanish", async ({ page }) => {
  // Three languages with an axe scan each, on a shared two-core machine.
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAndConfirm(page, uniqueEmail("ask-widget-360"));
  await seed(page, "en", 1);
  for (const [prefix, name, question] of [
    ["", "Open Ask Murmur", "lisinopril dose?"],
    ["/fr", "Ouvrir Ask Murmur", "dose de lisinopril ?"],
    ["/es", "Abrir Ask Murmur", "¿dosis de lisinopril?"],
  ] as const) {
    await page.goto(`${prefix}/dashboard`);
    await waitForHydration(page);
    const button = page.getByRole("button", { name });
    const box = await button.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(360 - 8);
    await button.click();
    const drawer = page.getByTestId("ask-drawer");
    await expect(drawer).toHaveAttribute("data-compact", "true");
    expect(await drawer.boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await expect(page.getByTestId("ask-resize")).toHaveCount(0);
    await page.getByTestId("ask-input").fill(question);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("chat-message")).toHaveCount(2);
    await expect(page.getByTestId("chat-message").nth(1).locator(".rag-answer")).toContainText("lisinopril");
    const overflow = await page.evaluate(() => document.body.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SHOTS, `widget-${prefix.slice(1) || "en"}-360.png`) });
    expect(await seriousAxe(page)).toEqual([]);
  }
});

for (const { prefix, lang, labels } of [
  {
    prefix: "/fr",
    lang: "fr" as const,
    labels: {
      open: "Ouvrir Ask Murmur",
      you: "Vous",
      openSource: "Ouvrir la source",
      full: "Ouvrir en pleine page",
      q: "Quelle dose de lisinopril ?",
    },
  },
  {
    prefix: "/es",
    lang: "es" as const,
    labels: {
      open: "Abrir Ask Murmur",
      you: "Usted",
      openSource: "Abrir la fuente",
      full: "Abrir en página completa",
      q: "¿Qué dosis de lisinopril?",
    },
  },
]) {
  test(`widget in ${lang}: labels, answer, source modal link in the language`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signUpAndConfirm(page, uniqueEmail(`ask-widget-${lang}`), prefix);
    const { visits } = await seed(page, lang, 2);
    await page.goto(`${prefix}/dashboard`);
    await waitForHydration(page);
    await page.getByRole("button", { name: labels.open }).click();
    const drawer = page.getByTestId("ask-drawer");
    await expect(drawer.getByRole("link", { name: labels.full })).toHaveAttribute("href", `${prefix}/records-qa`);
    await page.getByTestId("ask-input").fill(labels.q);
    await page.keyboard.press("Enter");
    const messages = page.getByTestId("chat-message");
    await expect(messages.first()).toContainText(labels.you);
    await expect(messages.nth(1).locator(".rag-answer")).toContainText("lisinopril");
    await messages.nth(1).getByTestId("citation-chip").first().click();
    const link = page.getByTestId("source-modal").getByRole("link", { name: labels.openSource });
    await expect(link).toHaveAttribute(
      "href",
      new RegExp(`^${prefix}/transcribing\\?visit_id=(${visits.map((v) => v.id).join("|")})&r=\\d{13}`),
    );
    await page.screenshot({ path: path.join(SHOTS, `widget-${lang}-1280-source.png`) });
    expect(await seriousAxe(page)).toEqual([]);
  });
}

/** A mono 16-bit PCM WAV of `seconds` of a quiet 440 Hz tone: real audio the player can seek in. */
function toneWav(seconds: number, rate = 8000): Buffer {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

test("a transcript source's 'Open source' seeks the visit's audio to the cited second", async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndConfirm(page, uniqueEmail("ask-seek"));
  const orgs = (await (await page.request.get("/api/orgs")).json()) as { id: string }[];
  const headers = { "x-org-id": orgs[0]?.id ?? "" };
  const patient = (await (await page.request.post("/api/patients", { data: { display_name: "Tom Seek" }, headers })).json()) as {
    id: string;
  };
  const visit = (await (
    await page.request.post("/api/visits", {
      data: { patient_id: patient.id, title: "Tone", language: "en", consent: true },
      headers,
    })
  ).json()) as { id: string };
  const wav = toneWav(12);
  const sha = createHash("sha256").update(wav).digest("hex");
  const put = await page.request.put(`/api/visits/${visit.id}/audio/chunks/0`, {
    data: wav,
    headers: { ...headers, "content-type": "application/octet-stream", "x-chunk-sha256": sha },
  });
  expect(put.status()).toBeLessThan(300);
  const finish = await page.request.post(`/api/visits/${visit.id}/audio/finish`, {
    data: { chunks: 1, bytes: wav.length, duration_ms: 12_000, mime_type: "audio/wav", chunk_sha256: [sha] },
    headers,
  });
  expect(finish.status()).toBeLessThan(300);
  await page.goto(`/transcribing?visit_id=${visit.id}&r=${Date.now()}&start=7`);
  const audio = page.getByTestId("visit-audio");
  await expect(audio).toHaveAttribute("data-start", "7");
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 15_000 }).toBe(7);
  // Without the parameter the player stays at the beginning. (`transcript=1`: the transcript view even
  // once the visit's note was auto-drafted, issue 29.)
  await page.goto(`/transcribing?visit_id=${visit.id}&transcript=1`);
  await expect(page.getByTestId("visit-audio")).not.toHaveAttribute("data-start");
  expect(await page.getByTestId("visit-audio").evaluate((el: HTMLAudioElement) => el.currentTime)).toBe(0);
});
