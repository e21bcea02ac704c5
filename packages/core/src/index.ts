export { type Actor, ANONYMOUS, ROLES, type Role, roleSchema } from "./auth/roles.ts";
export { can, canEdit, canRead, requireCapability } from "./auth/capabilities.ts";
export { createDb, type Db, type DbHandle, type Provider, sqliteFilePath } from "./db/db.ts";
export { DomainError, invalidParam, invalidParams, missingParams, unauthorized } from "./errors.ts";
export { appRouter, type AppRouter, restRouter, type RestRouter, type RouterInputs, type RouterOutputs } from "./router.ts";
export { DEFAULT_LANGUAGE, LANGUAGES, type Language, languageSchema } from "./shared/language.ts";
export type { Context, RestResponse, Site } from "./trpc/context.ts";
export { asTrpcError, type DomainErrorData, noRoute, toDomainError } from "./trpc/domain-error.ts";
export { createCallerFactory, publicProcedure, router } from "./trpc/init.ts";
export {
  authenticateToken,
  createToken,
  createUser,
  ensureAdmin,
  listTokens,
  listUsers,
  revokeTokens,
} from "./users/users.service.ts";
