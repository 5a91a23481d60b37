import { z } from "zod";
import { ORG_ROLES } from "#app/db/schema.ts";

/** The page's three forms (one `intent` each), shared by the forms and the action. */
export const InvitationsActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("invite"),
    email: z.string().trim().max(320).pipe(z.email()),
    role: z.enum(ORG_ROLES),
  }),
  z.object({ intent: z.literal("resend"), invitationId: z.uuid() }),
  z.object({ intent: z.literal("revoke"), invitationId: z.uuid() }),
]);
