import fs from "node:fs";
import net from "node:net";
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
 * Waits until React has hydrated the document, without waiting for the network to go quiet: the
 * page has loaded, React has claimed the server-rendered <html>, and passive effects have had a
 * turn. For pages whose data comes with the document (read-only scans such as a11y and routes):
 * "networkidle" costs at least 500 ms per page, and a hydrated page has loaded every module it
 * renders. Journeys that click into client-side fetches keep `waitForHydration`.
 */
export async function waitForReady(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.waitForFunction(() => {
    const hydrated = (el: Element | null) => !!el && Object.keys(el).some((k) => k.startsWith("__reactFiber$"));
    return hydrated(document.documentElement) || hydrated(document.body) || hydrated(document.querySelector("main"));
  });
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
  );
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
export async function expectClientError(response: APIResponse | RawResponse, status?: number): Promise<string> {
  const answer =
    "text" in response
      ? { status: response.status(), headers: response.headers(), body: await response.text() }
      : { status: response.status, headers: response.headers, body: response.body };
  const context = `${answer.status}: ${answer.body.slice(0, 300)}`;
  if (status !== undefined) expect(answer.status, context).toBe(status);
  expect(answer.status, context).toBeGreaterThanOrEqual(400);
  expect(answer.status, context).toBeLessThan(500);
  expectNoStackTrace(answer.body);
  if ((answer.headers["content-type"] ?? "").includes("json")) {
    const json = JSON.parse(answer.body) as { code?: unknown };
    expect(typeof json.code, `JSON error body without a string "code": ${answer.body.slice(0, 300)}`).toBe("string");
  }
  return answer.body;
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

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends a request over a plain socket, optionally waiting `headersFirstMs` for an early answer
 * before uploading the body, and stops uploading as soon as the server replies. The server
 * closes the connection right after an early 413 without reading the body, so a client that is
 * still uploading may get EPIPE/ECONNRESET and lose the answer: Playwright's request fixture
 * fails that way intermittently (see the report on server/request-guard.ts).
 */
export function rawRequest(
  baseURL: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; headersFirstMs?: number },
): Promise<RawResponse> {
  const url = new URL(baseURL);
  const body = options.body ?? Buffer.alloc(0);
  const head = [
    `${options.method} ${options.path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Length: ${body.length}`,
    "Connection: close",
    ...Object.entries(options.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    "",
    "",
  ].join("\r\n");

  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port || 80), url.hostname);
    const received: Buffer[] = [];
    let finished = false;
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    const timer = setTimeout(() => finish(new Error("no complete answer within 15 s")), 15_000);

    function finish(error?: Error) {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(received);
      const split = raw.indexOf("\r\n\r\n");
      if (split === -1) return reject(error ?? new Error(`incomplete answer: ${raw.toString("latin1").slice(0, 200)}`));
      const [statusLine = "", ...lines] = raw.subarray(0, split).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let payload: Buffer = raw.subarray(split + 4);
      if (headers["transfer-encoding"]?.includes("chunked")) payload = dechunk(payload);
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: payload.toString("utf8") });
    }

    socket.on("data", (chunk: Buffer) => received.push(chunk));
    // Once the server has answered it may close the socket mid-upload (EPIPE/ECONNRESET): keep the answer.
    socket.on("error", (error) => finish(error));
    socket.on("end", () => finish());
    socket.on("connect", async () => {
      socket.write(head);
      // Like a client sending "Expect: 100-continue": give the server a moment to refuse the
      // request from its headers alone before uploading the body.
      const answered = new Promise((r) => socket.once("data", r));
      await Promise.race([answered, closed, new Promise((r) => setTimeout(r, options.headersFirstMs ?? 0))]);
      for (let offset = 0; offset < body.length && !finished && received.length === 0; offset += 64 * 1024) {
        if (!socket.write(body.subarray(offset, offset + 64 * 1024))) {
          await Promise.race([new Promise((r) => socket.once("drain", r)), closed]);
        }
      }
    });
  });
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < data.length) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd === -1) break;
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
