import { z } from "zod";
import { PATIENT_TABLE_SORTS } from "#app/services/patients/patient-table.server.ts";
import { INVALID_TEXT, isStorableText } from "#app/utils/storable-text.ts";

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** /patients?q=&sort=&dir=&page= — a value that cannot be used is a 404 page, like the dashboard's. */
export const PatientTableQuerySchema = z.object({
  q: z.string().max(200).refine(isStorableText, { error: INVALID_TEXT }).default(""),
  sort: z.preprocess(blank, z.enum(PATIENT_TABLE_SORTS).default("name")),
  dir: z.preprocess(blank, z.enum(["asc", "desc"]).default("asc")),
  page: z.preprocess(blank, z.coerce.number().int().min(1).max(10_000).default(1)),
});
