import { z } from "zod";
import { isStorableLine } from "#app/utils/storable-text.ts";

export const SignUpSchema = z.object({
  fullName: z.string().trim().min(1).max(200).refine(isStorableLine),
  email: z.email().max(320),
  password: z.string().min(1).max(256),
  redirectTo: z.string().max(2048).optional(),
});

export const ResetPasswordSchema = z.object({ email: z.email().max(320) });

export const UpdatePasswordSchema = z
  .object({ password: z.string().min(1).max(256), confirm: z.string().max(256) })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "mismatch" });
