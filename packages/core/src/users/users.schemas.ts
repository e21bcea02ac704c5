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

/** The name of the tokens `CALENDAR_ADMIN_TOKEN` set (see `ensureAdmin`); no other token may take it. */
export const ENVIRONMENT_TOKEN_NAME = "CALENDAR_ADMIN_TOKEN";

export const createTokenInput = z.object({
  login: loginSchema,
  name: z
    .string()
    .trim()
    .max(100)
    .refine((name) => name !== ENVIRONMENT_TOKEN_NAME, `Is reserved for the token ${ENVIRONMENT_TOKEN_NAME} sets.`)
    .optional(),
});
export type CreateTokenInput = z.infer<typeof createTokenInput>;
