import { z } from "zod";

export const PasswordSignInSchema = z.object({
  intent: z.literal("password"),
  email: z.email().max(320),
  password: z.string().min(1).max(256),
  redirectTo: z.string().max(2048).optional(),
});

export const MagicLinkSchema = z.object({
  intent: z.literal("magic"),
  email: z.email().max(320),
  redirectTo: z.string().max(2048).optional(),
});

export const TotpSchema = z.object({
  intent: z.literal("totp"),
  code: z.string().regex(/^\d{6}$/),
  redirectTo: z.string().max(2048).optional(),
});

export const LoginSchema = z.discriminatedUnion("intent", [PasswordSignInSchema, MagicLinkSchema, TotpSchema]);
