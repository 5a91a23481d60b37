import { z } from "zod";

/** The emailed token: base64url, as randomToken() makes it (invitation-preview.server.ts checks the same). */
export const InvitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,256}$/);

/** The page's two buttons: accept, or sign out of the wrong account and come back. */
export const AcceptInviteActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("accept"), token: InvitationTokenSchema }),
  z.object({ intent: z.literal("signOut"), token: InvitationTokenSchema }),
]);
