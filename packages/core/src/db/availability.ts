/**
 * Does an error mean "the database cannot be used right now" (unreachable, restarting, refusing connections,
 * out of connections, or a SQLite file locked past the busy timeout)? Such failures are the client's to retry:
 * they answer 503 `rest_database_unavailable`, and the next request reconnects by itself.
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);
/** SQLSTATEs: connection exceptions (08…), shutdown/cannot connect now (57P01–57P03), too many connections. */
const POSTGRES_STATES = /^(08...|57P0[123]|53300|3D000)$/;
const POSTGRES_REFUSING = "is not currently accepting connections";
/** SQLite result codes: BUSY and LOCKED (the primary code is the low byte of an extended one). */
const SQLITE_BUSY_CODES = new Set([5, 6]);

interface AdapterCause {
  kind?: string;
  code?: string;
  message?: string;
  extendedCode?: number;
}

function adapterCauseOf(error: object): AdapterCause | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } }).meta;
  return meta?.driverAdapterError?.cause ?? (error as { cause?: AdapterCause }).cause;
}

function isUnavailableCause(cause: AdapterCause): boolean {
  if (cause.kind && ADAPTER_KINDS.has(cause.kind)) return true;
  if (cause.kind === "postgres") {
    return POSTGRES_STATES.test(cause.code ?? "") || (cause.message ?? "").includes(POSTGRES_REFUSING);
  }
  if (cause.kind === "sqlite") return SQLITE_BUSY_CODES.has((cause.extendedCode ?? -1) & 0xff);
  return false;
}

/**
 * The drivers' own errors, which the raw reads (`reader.*.ts`) throw unwrapped: pg's `DatabaseError` (a SQLSTATE
 * and a severity) and better-sqlite3's `SqliteError` (a result code name such as `SQLITE_BUSY_SNAPSHOT`).
 */
function isUnavailableDriverError(error: object, code: string): boolean {
  const { severity, message } = error as { severity?: unknown; message?: unknown };
  if (typeof severity === "string") return POSTGRES_STATES.test(code) || String(message).includes(POSTGRES_REFUSING);
  return /^SQLITE_(BUSY|LOCKED)/.test(code);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (PRISMA_CODES.has(code) || NETWORK_CODES.has(code))) return true;
    if (typeof code === "string" && isUnavailableDriverError(current, code)) return true;
    const cause = adapterCauseOf(current);
    if (cause && isUnavailableCause(cause)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
