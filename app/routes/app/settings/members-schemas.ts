import { z } from "zod";
import { ORG_ROLES } from "#app/db/schema.ts";

/** The member forms of Settings → Members: change a role, remove a member. */
export const MemberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("change-role"), userId: z.guid(), role: z.enum(ORG_ROLES) }),
  z.object({ intent: z.literal("remove"), userId: z.guid() }),
]);
