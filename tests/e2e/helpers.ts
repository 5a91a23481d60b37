import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type APIResponse, expect, type Page } from "@playwright/test";

const LOCALES_DIR = fileURLToPath(new URL("../../locales/", import.meta.url));

export const PRODUCT_NAME = "Murmur AI Scribe";

export type Lang = "en" | "fr" | "es";

/** The three interface languages and their URL prefixes (English has none). */
export const LANGS: readonly { lang: Lang; prefix: string }[] = [
  { lang: "en", prefix: "" },
  { lang: "fr", prefix: "/fr" },
  { lang: "es", prefix: "/es" },
];

/** Pages rendered with marketing.json sections inside article.marketing-article. */
export const MARKETING_PAGES = [
  "/product",
  "/product/coding",
  "/product/transcription",
  "/about",
  "/contact",
  "/support",
  "/privacy-policy",
  "/terms-of-service",
] as const;

export const AUTH_PAGES = ["/login", "/signup", "/accept-invite", "/reset-password", "/update-password"] as const;

export const PUBLIC_PAGES = [...AUTH_PAGES, "/pricing", ...MARKETING_PAGES, "/test-upload", "/test-real-audio"] as const;

export const SIGNED_IN_PAGES = [
  "/dashboard",
  "/coding",
  "/settings",
  "/records-qa",
  "/transcribing",
  "/periodontal-chart",
  "/custom-templates",
] as const;

/** A key from locales/<lang>/<ns>.json, e.g. t("fr", "errors", "http.malformed_url"). */
export function t(lang: Lang, ns: string, key: string): string {
  const file = path.join(LOCALES_DIR, lang, `${ns}.json`);
  let value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== "string") throw new Error(`Missing translation ${lang}/${ns}:${key}`);
  return value;
}

/** Collects console errors and uncaught page errors from the moment it is called. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/**
 * Waits until React has hydrated the document: the page has loaded, the network is quiet, React
 * has claimed the server-rendered <html>, and passive effects (event listeners) have had a turn.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => {
    const hydrated = (el: Element | null) => !!el && Object.keys(el).some((k) => k.startsWith("__reactFiber$"));
    return hydrated(document.documentElement) || hydrated(document.body) || hydrated(document.querySelector("main"));
  });
  // Effects of a transition-priority hydration run in a scheduler task right after the commit.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
  );
}

/** A response body must never show a server stack trace or server file paths. */
export function expectNoStackTrace(body: string): void {
  expect(body, "stack frame in body").not.toMatch(/^\s*at\s+\S.*:\d+:\d+\)?\s*$/m);
  expect(body, "stack frame in body").not.toMatch(/\bat (?:async )?[\w$.<>]+ \((?:file:\/\/|\/)[^)]*:\d+:\d+\)/);
  expect(body, "server path in body").not.toMatch(/node_modules\/|build\/server\/|file:\/\//);
}

/** All Set-Cookie header values of a response. */
export function setCookies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value);
}

/** Asserts a 4xx answer: never a 5xx, never a stack trace, and a string `code` when the body is JSON. */
export async function expectClientError(response: APIResponse, status?: number): Promise<string> {
  const body = await response.text();
  if (status !== undefined) expect(response.status(), body.slice(0, 300)).toBe(status);
  expect(response.status(), body.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(response.status(), body.slice(0, 300)).toBeLessThan(500);
  expectNoStackTrace(body);
  if ((response.headers()["content-type"] ?? "").includes("json")) {
    const json = JSON.parse(body) as { code?: unknown };
    expect(typeof json.code, `JSON error body without a string "code": ${body.slice(0, 300)}`).toBe("string");
  }
  return body;
}

/** Decodes the character references a server-rendered HTML string may contain. */
export function decodeHtml(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
