import { z } from "zod";

export const ROLES = ["subscriber", "contributor", "author", "editor", "administrator"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Who makes a request: the anonymous public or a signed-in user with a role. */
export type Actor = { kind: "anonymous" } | { kind: "user"; id: number; login: string; role: Role };

export const ANONYMOUS: Actor = { kind: "anonymous" };
