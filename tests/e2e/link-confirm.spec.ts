import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { latestLink, signOut, signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { axeViolations } from "./axe.ts";
import { t } from "./helpers.ts";

// Issue 25, login CSRF: an attacker asks for a magic link to their own account and sends the
// clinician /auth/callback?token_hash=…&type=magiclink&next=/transcribing. The clinician's browser,
// signed in, must not silently become the attacker's: a page names both accounts and waits.
const SHOTS = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), "murmur-link-confirm"));

/** The attacker's own magic-link token, requested in their own browser. */
async function attackerToken(page: Page, email: string): Promise<string> {
  await signUpAndConfirm(page, email);
  await signOut(page);
  await page.goto("/login");
  await page.locator("details.magic-link > summary").click();
  await page.locator('details.magic-link input[name="email"]').fill(email);
  await page.locator("details.magic-link button[type=submit]").click();
  await expect(page.getByRole("status")).toContainText(email);
  // The newest link to the attacker is the magic link (the confirmation link was used already).
  let token = "";
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get("/dev/mailbox.json")).json()) as { to: string; text: string }[];
      const mail = mails.find((m) => m.to === email && m.text.includes("type=magiclink"));
      token =
        new URL(mail?.text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0] ?? "http://x/").searchParams.get("token") ?? "";
      return token;
    })
    .not.toBe("");
  return token;
}

test("a magic link sent by someone else shows both accounts and switches nothing by itself", async ({ page, browser }) => {
  const victim = uniqueEmail("victim");
  const attacker = uniqueEmail("attacker");
  const attackerContext = await browser.newContext();
  const token = await attackerToken(await attackerContext.newPage(), attacker);
  await attackerContext.close();
  expect(await latestLink(page.request, attacker)).toContain("type=");

  await signUpAndConfirm(page, victim);
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/auth/callback?token_hash=${token}&type=magiclink&next=/transcribing`);
    await expect(page.locator("h1")).toHaveText(t("en", "auth", "linkConfirm.heading"));
    await expect(page.getByTestId("link-target")).toContainText(attacker);
    const warning = page.getByTestId("link-switch-warning");
    await expect(warning).toContainText(victim);
    await expect(warning).toContainText(attacker);
    // A safety cue, not a grey line: the warning colour, on the warning background.
    const colour = await warning.locator("strong").evaluate((el) => getComputedStyle(el).color);
    expect(colour).not.toBe(await page.locator("body").evaluate((el) => getComputedStyle(el).color));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `link-confirm-${width}.png`), fullPage: true });
  }
  // Staying is one click, and the victim is still themselves.
  await page.getByRole("link", { name: t("en", "auth", "linkConfirm.stay").replace("{{current}}", victim) }).click();
  await page.goto("/settings");
  await expect(page.locator("body")).toContainText(victim);
  await expect(page.locator("body")).not.toContainText(attacker);
});
