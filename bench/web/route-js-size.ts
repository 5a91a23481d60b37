// JavaScript a page's routes load before they are interactive, read from the client build's React
// Router manifest (issue 11 budgets: /login ≤ 150 KB gzip, the signed-in shell ≤ 300 KB). Unlike
// bundle-size.ts it needs no running server nor a signed-in session: entry + each route module and
// their listed imports, plus the static imports inside those files. Dynamic import() is not counted.
//   node bench/web/route-js-size.ts   (after `npx react-router build`)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

type Entry = { module: string; imports?: string[] };
const CLIENT = path.resolve("build/client");
const manifestFile = fs.readdirSync(path.join(CLIENT, "assets")).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) throw new Error("no React Router manifest in build/client/assets: build first");
const source = fs.readFileSync(path.join(CLIENT, "assets", manifestFile), "utf8");
const manifest = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as {
  entry: Entry;
  routes: Record<string, Entry>;
};

const PAGES: Record<string, string[]> = {
  "/login": ["root", "routes/locale", "routes/layouts/auth", "routes/auth/login"],
  "/dashboard (signed-in shell)": ["root", "routes/locale", "routes/layouts/app", "routes/app/dashboard"],
  "/coding (signed-in shell)": ["root", "routes/locale", "routes/layouts/app", "routes/app/coding"],
};
const STATIC_IMPORT = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']((?:\.{1,2})?\/[^"'\n]+)["']/g;

function collect(ids: string[]): Set<string> {
  const files = new Set<string>();
  const queue: string[] = [];
  const add = (url: string) => {
    if (!files.has(url)) {
      files.add(url);
      queue.push(url);
    }
  };
  for (const part of [manifest.entry, ...ids.map((id) => manifest.routes[id])]) {
    if (!part) throw new Error(`route not in the manifest: ${ids.join(", ")}`);
    add(part.module);
    for (const url of part.imports ?? []) add(url);
  }
  while (queue.length) {
    const url = queue.shift() as string;
    const body = fs.readFileSync(path.join(CLIENT, url), "utf8");
    for (const [, spec = ""] of body.matchAll(STATIC_IMPORT)) add(new URL(spec, `http://x${url}`).pathname);
  }
  return files;
}

for (const [page, ids] of Object.entries(PAGES)) {
  const files = collect(ids);
  let gzip = 0;
  for (const url of files) gzip += zlib.gzipSync(fs.readFileSync(path.join(CLIENT, url)), { level: 9 }).length;
  console.log(`${page.padEnd(30)} ${String(files.size).padStart(3)} files  gzip -9 ${gzip} B = ${(gzip / 1000).toFixed(1)} KB`);
}
