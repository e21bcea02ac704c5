import { z } from "zod";
import { roleSchema } from "../auth/roles.ts";

export const loginSchema = z
  .string()
  .trim()
  .min(1, "Must not be empty.")
  .max(60)
  .regex(/^[A-Za-z0-9._@-]+$/, "Use letters, digits and . _ @ - only.");

export const createUserInput = z.object({
  login: loginSchema,
  role: roleSchema,
  displayName: z.string().trim().max(250).optional(),
  email: z.string().trim().max(250).optional(),
});
export type CreateUserInput = z.infer<typeof createUserInput>;

export const createTokenInput = z.object({
  login: loginSchema,
  name: z.string().trim().max(100).optional(),
});
export type CreateTokenInput = z.infer<typeof createTokenInput>;
