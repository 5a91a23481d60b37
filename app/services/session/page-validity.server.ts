import { data } from "react-router";
import { z } from "zod";

const IdSchema = z.uuid();

/** SPEC §2 page-level validity check: a failing page is a 404 "Page Not Found: {path}". */
export function assertValidPage(valid: boolean): void {
  if (!valid) throw data({ kind: "invalid" }, { status: 404 });
}

/** An optional id query parameter must be a well-formed id when present. */
export function optionalIdParam(url: URL, name: string): string | null {
  const value = url.searchParams.get(name);
  if (value === null) return null;
  assertValidPage(IdSchema.safeParse(value).success);
  return value;
}
