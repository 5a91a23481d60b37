import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

// Issue 11 "Design system": Pico CSS is gone (ADR 0011), so no stylesheet or component may read a
// Pico variable: with no alias left, such a rule silently falls back to nothing (coding.css's
// borders did). Every colour, radius and space comes from the --mm-* tokens of tokens.css.

const ROOT = new URL("../../app/", import.meta.url);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(css|tsx?)$/.test(entry.name) ? [path] : [];
  });
}

it("no stylesheet or component reads a --pico-* variable", () => {
  const files = sources(ROOT.pathname);
  expect(files.some((file) => file.endsWith("tokens.css"))).toBe(true);
  const offenders = files.filter((file) => /--pico-/.test(readFileSync(file, "utf8")));
  expect(offenders).toEqual([]);
});

it("every --mm-* variable a stylesheet reads is defined in tokens.css or the stylesheets", () => {
  const css = sources(ROOT.pathname).filter((file) => file.endsWith(".css"));
  const text = css.map((file) => readFileSync(file, "utf8")).join("\n");
  const defined = new Set([...text.matchAll(/(--mm-[\w-]+)\s*:/g)].map((m) => m[1]));
  const read = new Set([...text.matchAll(/var\((--mm-[\w-]+)/g)].map((m) => m[1]));
  expect([...read].filter((name) => !defined.has(name))).toEqual([]);
});
