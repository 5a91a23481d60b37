import { z } from "zod";
import { isStorableLine } from "#app/utils/storable-text.ts";

export const SecurityActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("enroll-totp"), friendlyName: z.string().trim().min(1).max(80).refine(isStorableLine) }),
  z.object({ intent: z.literal("verify-totp"), factorId: z.uuid(), code: z.string().regex(/^\d{6}$/) }),
  z.object({ intent: z.literal("remove-factor"), factorId: z.uuid() }),
  z.object({ intent: z.literal("sign-out-others") }),
  z.object({ intent: z.literal("send-reauth-code") }),
  z.object({
    intent: z.literal("change-password"),
    password: z.string().min(1).max(256),
    nonce: z.string().trim().max(20).optional(),
  }),
]);
