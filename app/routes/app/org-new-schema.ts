import { z } from "zod";

export const NewOrgSchema = z.object({
  name: z.string().trim().min(1, "name_required").max(200, "name_too_long"),
});
