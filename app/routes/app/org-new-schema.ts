import { z } from "zod";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";
import { isValidTimeZone } from "#app/utils/zoned-time.ts";
import { ORG_REGIONS } from "./settings/organization-schemas.ts";

const isTimeZone = (zone: string) => zone === "UTC" || isValidTimeZone(zone);

export const NewOrgSchema = z.object({
  // Issue 29: from the browser (Intl), editable; absent (an older form) keeps the defaults.
  timezone: z.string().max(64).refine(isTimeZone, "invalid_timezone").optional(),
  region: z.enum(ORG_REGIONS, { error: "invalid_region" }).optional(),
  name: z.string().trim().min(1, "name_required").max(200, "name_too_long").refine(isStorableLine, { error: INVALID_TEXT }),
});
