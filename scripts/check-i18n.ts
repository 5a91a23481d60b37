// Fails when a message key (or array item) exists in one language and not in another,
// when a value is empty, or when the {{placeholders}} of a message differ between languages.
import fs from "node:fs";
import path from "node:path";

const LOCALES = ["en", "fr", "es"];
const ROOT = path.resolve(import.meta.dirname, "../locales");

type Flat = Map<string, string>;

function flatten(value: unknown, prefix: string, out: Flat): Flat {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) flatten(v, `${prefix}[${i}]`, out);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, String(value));
  return out;
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(",");
}

const problems: string[] = [];
const namespaces = new Set(LOCALES.flatMap((l) => fs.readdirSync(path.join(ROOT, l)).filter((f) => f.endsWith(".json"))));
let keyCount = 0;
for (const file of [...namespaces].sort()) {
  const flats = new Map<string, Flat>();
  for (const locale of LOCALES) {
    const p = path.join(ROOT, locale, file);
    if (!fs.existsSync(p)) {
      problems.push(`${locale}/${file}: missing file`);
      continue;
    }
    try {
      flats.set(locale, flatten(JSON.parse(fs.readFileSync(p, "utf8")), "", new Map()));
    } catch (error) {
      problems.push(`${locale}/${file}: invalid JSON (${(error as Error).message})`);
    }
  }
  const allKeys = new Set([...flats.values()].flatMap((f) => [...f.keys()]));
  keyCount += allKeys.size;
  for (const key of [...allKeys].sort()) {
    const reference = flats.get("en")?.get(key);
    for (const [locale, flat] of flats) {
      const value = flat.get(key);
      if (value === undefined) problems.push(`${locale}/${file}: missing key ${key}`);
      else if (value.trim() === "") problems.push(`${locale}/${file}: empty value at ${key}`);
      else if (reference !== undefined && placeholders(value) !== placeholders(reference)) {
        problems.push(`${locale}/${file}: placeholders of ${key} differ from en`);
      }
    }
  }
}

if (problems.length) {
  const shown = problems.slice(0, 40).map((p) => `  ${p}`);
  if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
  console.error(`i18n check failed (${problems.length} problems):\n${shown.join("\n")}`);
  process.exit(1);
}
console.log(`i18n check: ${namespaces.size} namespaces × ${LOCALES.length} languages, ${keyCount} keys, all present.`);
