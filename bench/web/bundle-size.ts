import zlib from "node:zlib";
import { getRaw } from "./http.ts";

export type AssetSize = {
  path: string;
  /** How the file was found: "modulepreload", "script", "inline module import", or "imported by <file>". */
  via: string;
  rawBytes: number;
  /** gzip -9 of the decoded file: independent of the server's compression settings. */
  gzip9Bytes: number;
  /** Body bytes actually sent when asked for gzip (the server skips compressing tiny files). */
  transferBytes: number;
  contentEncoding: string;
};

export type PageJs = {
  page: string;
  files: AssetSize[];
  totals: { rawBytes: number; gzip9Bytes: number; transferBytes: number };
  /** Chunks reachable only through a dynamic import() (directly or further down): loaded on demand, not counted. */
  lazy: { path: string; from: string; gzip9Bytes: number }[];
};

const ASSETS_PREFIX = "/assets/";

// Rolldown emits minified ESM: `import{a as b}from"./x.js"`, `import"./x.js"`, `export{c}from"./x.js"`.
// The clause may only contain identifiers, braces, commas, `*` and whitespace, which is what keeps
// `import(` (dynamic) and `import.meta` from matching; requiring a path-like specifier keeps the
// word "import" inside ordinary strings from matching.
const STATIC_IMPORT = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']((?:\.{1,2})?\/[^"'\n]+)["']/g;
const DYNAMIC_IMPORT = /(?:^|[^\w$.])import\(\s*["'`]((?:\.{1,2})?\/[^"'`$\n]+)["'`]\s*\)/g;
const SCRIPT_TAG = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const LINK_TAG = /<link\b([^>]*)>/gi;
const ATTRIBUTE = /([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/**
 * Everything the browser must download and evaluate before the page is interactive: scripts and
 * modulepreloads in the HTML, plus their static imports, transitively. Vite does not list every
 * static dependency as a modulepreload, so the HTML alone would under-count.
 */
export async function measurePageJs(baseUrl: string, page: string): Promise<PageJs> {
  const pageUrl = new URL(page, baseUrl);
  const html = await getRaw(pageUrl.href);
  if (html.status !== 200) throw new Error(`GET ${page} answered ${html.status}`);

  const queue: { path: string; via: string }[] = [];
  const seen = new Set<string>();
  const enqueue = (specifier: string, base: URL, via: string) => {
    const path = assetPath(specifier, base);
    if (path && !seen.has(path)) {
      seen.add(path);
      queue.push({ path, via });
    }
  };

  const markup = html.body.toString("utf8");
  for (const [, attrs = "", content = ""] of markup.matchAll(SCRIPT_TAG)) {
    const attributes = parseAttributes(attrs);
    const src = attributes.get("src");
    if (src) enqueue(src, pageUrl, "script");
    else if (attributes.get("type") === "module") {
      // React Router's inline bootstrap statically imports the matched route modules.
      for (const [, specifier = ""] of content.matchAll(STATIC_IMPORT)) enqueue(specifier, pageUrl, "inline module import");
    }
  }
  for (const [, attrs = ""] of markup.matchAll(LINK_TAG)) {
    const attributes = parseAttributes(attrs);
    const href = attributes.get("href");
    if (href && attributes.get("rel")?.split(/\s+/).includes("modulepreload")) enqueue(href, pageUrl, "modulepreload");
  }

  const files: AssetSize[] = [];
  const lazyRefs = new Map<string, string>();
  for (let item = queue.shift(); item; item = queue.shift()) {
    const fileUrl = new URL(item.path, baseUrl);
    const { size, body } = await measureAsset(fileUrl.href, item.path, item.via);
    files.push(size);
    const source = body.toString("utf8");
    const name = item.path.slice(ASSETS_PREFIX.length);
    for (const [, specifier = ""] of source.matchAll(STATIC_IMPORT)) enqueue(specifier, fileUrl, `imported by ${name}`);
    for (const [, specifier = ""] of source.matchAll(DYNAMIC_IMPORT)) {
      const path = assetPath(specifier, fileUrl);
      if (path && !lazyRefs.has(path)) lazyRefs.set(path, name);
    }
  }

  // Follow the on-demand chunks too (static and dynamic imports alike), so a heavy library behind
  // an import() shows up by name instead of hiding behind a small loader chunk.
  const lazy: PageJs["lazy"] = [];
  const lazyQueue = [...lazyRefs].filter(([path]) => !seen.has(path));
  for (const [path] of lazyQueue) seen.add(path);
  for (let item = lazyQueue.shift(); item; item = lazyQueue.shift()) {
    const [path, from] = item;
    const fileUrl = new URL(path, baseUrl);
    const { size, body } = await measureAsset(fileUrl.href, path, `import() in ${from}`);
    lazy.push({ path, from, gzip9Bytes: size.gzip9Bytes });
    const source = body.toString("utf8");
    for (const [, specifier = ""] of [...source.matchAll(STATIC_IMPORT), ...source.matchAll(DYNAMIC_IMPORT)]) {
      const next = assetPath(specifier, fileUrl);
      if (next && !seen.has(next)) {
        seen.add(next);
        lazyQueue.push([next, path.slice(ASSETS_PREFIX.length)]);
      }
    }
  }

  files.sort((a, b) => b.gzip9Bytes - a.gzip9Bytes);
  lazy.sort((a, b) => b.gzip9Bytes - a.gzip9Bytes);
  const sum = (key: "rawBytes" | "gzip9Bytes" | "transferBytes") => files.reduce((total, f) => total + f[key], 0);
  return {
    page,
    files,
    totals: { rawBytes: sum("rawBytes"), gzip9Bytes: sum("gzip9Bytes"), transferBytes: sum("transferBytes") },
    lazy,
  };
}

/** Fetches one file as a browser would (gzip accepted) and sizes it both ways. */
export async function measureAsset(url: string, path: string, via: string): Promise<{ size: AssetSize; body: Buffer }> {
  const res = await getRaw(url);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  return {
    body: res.body,
    size: {
      path,
      via,
      rawBytes: res.body.length,
      gzip9Bytes: zlib.gzipSync(res.body, { level: 9 }).length,
      transferBytes: res.wire.length,
      contentEncoding: res.headers["content-encoding"] ?? "identity",
    },
  };
}

/** The pathname of a JavaScript file under /assets/ on the same origin, or null for anything else. */
function assetPath(specifier: string, base: URL): string | null {
  let url: URL;
  try {
    url = new URL(specifier, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(ASSETS_PREFIX)) return null;
  return /\.m?js$/.test(url.pathname) ? url.pathname : null;
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name = "", double, single, bare] of source.matchAll(ATTRIBUTE)) {
    attributes.set(name.toLowerCase(), double ?? single ?? bare ?? "");
  }
  return attributes;
}
