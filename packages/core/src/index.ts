export { can, canEdit, requireCapability } from "./auth/capabilities.ts";
export { type Actor, ANONYMOUS, ROLES, type Role, roleSchema } from "./auth/roles.ts";
export { canRead } from "./auth/visibility.ts";
export { CATEGORY_FILTER_BOUNDS } from "./categories/category.descendants.ts";
export { pruneChanges } from "./changes/change.prune.ts";
export {
  preconditionFailed,
  type UnchangedSince,
} from "./changes/change.record.ts";
export { advanceChangeVersion, readChangeVersion } from "./changes/change-version.ts";
export { isDatabaseUnavailable } from "./db/availability.ts";
export {
  createDb,
  type Db,
  type DbHandle,
  type DbOptions,
  derivedDb,
  type Provider,
  readerOf,
  type SqliteSynchronous,
  sqliteFilePath,
} from "./db/db.ts";
export { ERROR_CATALOGUE, type ErrorArgs, type ErrorCode, type ErrorStatus } from "./errors.catalogue.ts";
export {
  DomainError,
  domainError,
  type ErrorExtra,
  invalidParam,
  invalidParams,
  missingParams,
  parseOrThrow,
  unauthorized,
} from "./errors.ts";
export { createEventsInBulk } from "./events/event.bulk-create.service.ts";
export { getEventBySlug } from "./events/event.get.service.ts";
export type { EventDetailOutput } from "./events/event.output.schemas.ts";
export { eventListQuery } from "./events/event.schemas.ts";
export { eventFeed, eventFileById, eventFileBySlug, type FeedOptions } from "./ical/ical.export.service.ts";
export {
  DEFAULT_HORIZON_MONTHS,
  DEFAULT_IMPORT_CAPS,
  DEFAULT_SERIES_CAP,
  type ImportCaps,
  type ImportResult,
  importQuery,
  importResult,
} from "./ical/ical.import.schemas.ts";
export { type IcalImportOptions, importCalendar } from "./ical/ical.import.service.ts";
export { vtimezoneOf, type ZoneYears } from "./ical/ical.vtimezone.ts";
export { issueReason } from "./param-reasons.ts";
export {
  type AppRouter,
  appRouter,
  type RestRouter,
  type RouterInputs,
  type RouterOutputs,
  restRouter,
} from "./router.ts";
export type { ChargeEvents, EventCharge, Scope } from "./scope.ts";
export { extendSeriesHorizons, type HorizonReport, hasSeriesBelowHorizon } from "./series/series.horizon.ts";
export { acquireSeriesLease, releaseSeriesLease } from "./series/series.lease.ts";
export { DEFAULT_SERIES_LIMITS, type SeriesLimits } from "./series/series.limits.ts";
export { DEFAULT_LANGUAGE, LANGUAGES, type Language, languageSchema, mlLanguage } from "./shared/language.ts";
export { idList, page, pathId, perPage, positiveId, wpBoolean } from "./shared/query.ts";
export { replaceTags } from "./shared/text.ts";
export { recountTermEvents } from "./terms/term.counts.ts";
export {
  type Context,
  type ListPage,
  type RestTransport,
  type Site,
  scopeOf,
  setListHeaders,
  setRestStatus,
} from "./trpc/context.ts";
export {
  asTrpcError,
  type DomainErrorData,
  databaseUnavailable,
  noRoute,
  type Transport,
  toDomainError,
} from "./trpc/domain-error.ts";
export { createCallerFactory, mergeRouters, publicProcedure, router } from "./trpc/init.ts";
export { rejectNulCharacters } from "./trpc/nul-characters.ts";
export type { ProcedureMeta, ReadPolicy } from "./trpc/operation.ts";
export { type OutputValidation, setOutputValidation } from "./trpc/output-validation.ts";
export {
  activeTokens,
  authenticateToken,
  createToken,
  createUser,
  deleteUser,
  ensureAdmin,
  listTokens,
  listUsers,
  revokeTokens,
  setUserRole,
  type TokenTarget,
} from "./users/users.service.ts";
export {
  isPublicAddress,
  resolveWebhookTarget,
  type WebhookTarget,
  type WebhookTargetPolicy,
  WebhookTargetRefused,
} from "./webhooks/webhook.address.ts";
export {
  type AttemptOutcome,
  type DueDelivery,
  dueDeliveries,
  pruneDeliveries,
  type RetryPolicy,
  recordAttempt,
} from "./webhooks/webhook.deliveries.ts";
export { hasActiveSubscriptions, type PresentRecord, queueDeliveries } from "./webhooks/webhook.fanout.ts";
export { acquireWebhookLease, releaseWebhookLease } from "./webhooks/webhook.lease.ts";
export { webhookCreateBody, webhookDeliveriesQuery, webhookUpdateBody } from "./webhooks/webhook.schemas.ts";
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookAttempts,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookScope,
} from "./webhooks/webhook.service.ts";
