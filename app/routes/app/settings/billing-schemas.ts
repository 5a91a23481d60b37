import { z } from "zod";
import { PAID_PLANS } from "#app/services/billing/plans.ts";

/** The billing page's one form: an owner picks a paid plan (the trial is never a choice). */
export const ChoosePlanSchema = z.object({
  intent: z.literal("choose-plan"),
  plan: z.enum(PAID_PLANS),
});
