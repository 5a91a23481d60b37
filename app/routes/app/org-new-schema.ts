import { z } from "zod";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";

export const NewOrgSchema = z.object({
  name: z.string().trim().min(1, "name_required").max(200, "name_too_long").refine(isStorableLine, { error: INVALID_TEXT }),
});
