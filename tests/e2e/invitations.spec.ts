import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { STRONG_PASSWORD, signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { t, waitForHydration } from "./helpers.ts";

// Issue 4 "Proof": an owner invites a colleague from Settings → Invitations, the colleague gets the
// link from the dev mailbox, creates an account, signs in through the invitation page and lands in
// that organisation.

const WIDTH = 360;

interface MailboxMessage {
  to: string;
  subject: string | null;
  text: string;
}

/** The newest invitation email to `to` and its accept link. */
async function invitationMail(request: APIRequestContext, to: string): Promise<{ subject: string; link: string }> {
  let found = { subject: "", link: "" };
  await expect
    .poll(async () => {
      const messages = (await (await request.get("/dev/mailbox.json")).json()) as MailboxMessage[];
      const mail = messages.find((m) => m.to === to && /\/accept-invite\?token=/.test(m.text));
      found = { subject: mail?.subject ?? "", link: mail?.text.match(/https?:\/\/\S+\/accept-invite\?token=[\w-]+/)?.[0] ?? "" };
      return found.link;
    })
    .not.toBe("");
  return found;
}

/** The page's own feedback (the app shell has other status regions, e.g. the organisation switch notice). */
function feedback(page: Page) {
  return page.locator('[data-page="settings-invitations"] [role="status"]');
}

async function orgCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === "murmur-org")?.value;
}

/** No page of the journey may scroll sideways on the narrowest supported screen (SPEC: 360 px). */
async function expectFitsNarrowScreen(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ html: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
  expect(widths.html).toBeLessThanOrEqual(WIDTH);
  expect(widths.body).toBeLessThanOrEqual(WIDTH);
}

test("an owner invites a colleague, who signs up, signs in from the invitation and lands in the organisation", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: WIDTH, height: 740 });
  const ownerEmail = uniqueEmail("owner");
  const colleagueEmail = uniqueEmail("colleague");
  const orgName = `Clinique ${ownerEmail.slice(6, 14)}`;

  // The owner's second organisation, opened through the deep-link parameter that switches to it.
  await signUpAndConfirm(page, ownerEmail);
  const created = await page.request.post("/api/orgs", { data: { name: orgName } });
  expect(created.status()).toBe(201);
  const { id: orgId } = (await created.json()) as { id: string };
  await page.goto(`/settings/invitations?org=${orgId}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: t("en", "invites", "settings.heading"), exact: true })).toBeVisible();
  await expectFitsNarrowScreen(page);

  await page.locator('input[name="email"]').fill(colleagueEmail);
  await page.locator('select[name="role"]').selectOption("clinician");
  await page.getByRole("button", { name: t("en", "invites", "form.submit") }).click();
  await expect(feedback(page)).toHaveText(t("en", "invites", "feedback.invited").replace("{{email}}", colleagueEmail));
  const row = page.locator("tr", { hasText: colleagueEmail });
  await expect(row).toContainText(t("en", "invites", "status.pending"));
  await expect(row).toContainText(t("en", "invites", "roles.clinician"));
  await expectFitsNarrowScreen(page);

  const mail = await invitationMail(page.request, colleagueEmail);
  expect(mail.subject).toContain(orgName);
  const link = new URL(mail.link);
  expect(link.pathname).toBe("/accept-invite");
  const invitePath = `${link.pathname}${link.search}`;

  // The owner is signed in with another email: the page says so instead of offering to accept.
  await page.goto(invitePath);
  await expect(page.locator('[role="alert"][data-code="invitation_email_mismatch"]')).toBeVisible();

  const colleagueContext = await browser.newContext({ viewport: { width: WIDTH, height: 740 } });
  const colleague = await colleagueContext.newPage();
  try {
    // Anonymous: organisation, inviter and role, and the way to sign in or sign up.
    const first = await colleague.goto(invitePath);
    expect(first?.status()).toBe(200);
    await expect(colleague).toHaveTitle(/^Accept Invitation · /);
    await expect(colleague.getByTestId("invitation-org")).toHaveText(orgName);
    await expect(colleague.locator("dl")).toContainText(ownerEmail);
    await expect(colleague.locator("dl")).toContainText(t("en", "invites", "roles.clinician"));
    await expectFitsNarrowScreen(colleague);
    const signup = colleague.getByRole("button", { name: t("en", "invites", "accept.createAccount") });
    expect(new URL((await signup.getAttribute("href")) ?? "", link).searchParams.get("redirectTo")).toBe(invitePath);

    await signUpAndConfirm(colleague, colleagueEmail);
    // Back from another session: sign in from the invitation page and come back to it.
    await colleagueContext.clearCookies();
    await colleague.goto(invitePath);
    await colleague.getByRole("button", { name: t("en", "invites", "accept.signIn") }).click();
    await expect(colleague).toHaveURL(/\/login\?redirectTo=/);
    await colleague.locator('form:has(input[name="password"]) input[name="email"]').fill(colleagueEmail);
    await colleague.locator('input[name="password"]').fill(STRONG_PASSWORD);
    await colleague.locator('form:has(input[name="password"]) button[type="submit"]').click();
    await expect(colleague).toHaveURL((url) => `${url.pathname}${url.search}` === invitePath);

    await colleague.getByRole("button", { name: t("en", "invites", "accept.submit") }).click();
    await expect(colleague).toHaveURL(/\/dashboard$/);
    expect(await orgCookie(colleagueContext)).toBe(orgId);
    // The colleague now works in that organisation, and sees it and their own personal one only.
    await expect(colleague.getByTestId("current-org")).toHaveText(orgName);
    const listed = (await (await colleague.request.get("/api/orgs")).json()) as { id: string; role: string; kind: string }[];
    expect(listed.map((o) => [o.kind, o.role]).sort()).toEqual([
      ["personal", "owner"],
      ["practice", "clinician"],
    ]);
    await colleague.getByTestId("org-switcher").locator("summary").click();
    await colleague.getByTestId("org-switcher").locator("button:not([disabled])").click();
    await expect(colleague.getByTestId("current-org")).not.toHaveText(orgName);
    await colleague.getByTestId("org-switcher").locator("summary").click();
    await colleague
      .getByTestId("org-switcher")
      .getByRole("button", { name: new RegExp(orgName) })
      .click();
    await expect(colleague.getByTestId("current-org")).toHaveText(orgName);
    await colleague.goto("/settings/members");
    await expect(colleague.locator("main")).toContainText(ownerEmail);
    // A clinician of that organisation: the invitations page does not exist for them.
    const settings = await colleague.goto("/settings/invitations");
    expect(settings?.status()).toBe(404);

    // The link is spent.
    const replay = await colleague.goto(invitePath);
    expect(replay?.status()).toBe(409);
    await expect(colleague.locator('[role="alert"][data-code="invitation_used"]')).toBeVisible();
  } finally {
    await colleagueContext.close();
  }

  await page.goto("/settings/invitations");
  await expect(page.locator("tr", { hasText: colleagueEmail })).toContainText(t("en", "invites", "status.accepted"));
});

test("resend sends a new link and the old one stops working; revoke ends the invitation", async ({ page }) => {
  test.setTimeout(60_000);
  const ownerEmail = uniqueEmail("owner-fr");
  const guest = uniqueEmail("guest");
  await signUpAndConfirm(page, ownerEmail, "/fr");
  await page.goto("/fr/settings/invitations");
  await page.locator('input[name="email"]').fill(guest);
  await page.locator('select[name="role"]').selectOption("staff");
  await page.getByRole("button", { name: t("fr", "invites", "form.submit") }).click();
  await expect(feedback(page)).toContainText(guest);
  const first = await invitationMail(page.request, guest);
  expect(new URL(first.link).pathname).toBe("/fr/accept-invite");

  await page.getByRole("button", { name: t("fr", "invites", "list.resendLabel").replace("{{email}}", guest) }).click();
  await expect(feedback(page)).toHaveText(t("fr", "invites", "feedback.resent").replace("{{email}}", guest));
  // The feedback shows once the action has queued the new email: the newest one carries the new link.
  const second = await invitationMail(page.request, guest);
  expect(second.link).not.toBe(first.link);

  const old = await page.request.get(first.link, { maxRedirects: 0 });
  expect(old.status()).toBe(404);
  expect((await page.request.get(second.link)).status()).toBe(403);

  await page.getByRole("button", { name: t("fr", "invites", "list.revokeLabel").replace("{{email}}", guest) }).click();
  await expect(feedback(page)).toHaveText(t("fr", "invites", "feedback.revoked"));
  await expect(page.locator("tr", { hasText: guest })).toContainText(t("fr", "invites", "status.revoked"));
  const revoked = await page.request.get(second.link);
  expect(revoked.status()).toBe(410);
});
