import { createHash } from "node:crypto";
import type { Locale } from "./config.ts";
import { resources } from "./resources.server.ts";

const cache = new Map<Locale, { body: string; etag: string }>();

/** The serialised messages of one locale with a content hash, computed once per process. */
export function getLocaleMessages(locale: Locale): { body: string; etag: string } {
  let entry = cache.get(locale);
  if (!entry) {
    const body = JSON.stringify(resources[locale]);
    entry = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    cache.set(locale, entry);
  }
  return entry;
}
