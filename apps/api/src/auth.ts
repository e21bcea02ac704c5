import {
  type Actor,
  ANONYMOUS,
  asTrpcError,
  authenticateToken,
  type Db,
  DomainError,
  unauthorized,
} from "@calendar/core";

async function actorFromCredentials(db: Db, header: string): Promise<Actor> {
  const [scheme, credentials = ""] = header.trim().split(/\s+/, 2);
  switch (scheme?.toLowerCase()) {
    case "bearer":
      return authenticateToken(db, credentials);
    case "basic": {
      const decoded = Buffer.from(credentials, "base64").toString("utf8");
      const separator = decoded.indexOf(":");
      if (separator < 1) throw unauthorized("Malformed Basic credentials.");
      return authenticateToken(db, decoded.slice(separator + 1), decoded.slice(0, separator));
    }
    default:
      throw unauthorized("Unsupported authorization scheme; use Bearer or Basic.");
  }
}

/**
 * Why the credentials of an Authorization header fail (401 `rest_not_logged_in`), or undefined when there are none
 * or they are right. For checks that must answer a failed authentication before anything else (preconditions).
 */
export async function authenticationFailure(db: Db, header: string | undefined): Promise<DomainError | undefined> {
  if (!header) return undefined;
  return actorFromCredentials(db, header).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof DomainError) return error;
      throw error;
    },
  );
}

/**
 * The actor of a request from its Authorization header: `Bearer <token>`, or HTTP Basic `<login>:<token>`
 * (as WordPress application passwords). No header means anonymous; anything unreadable or wrong is a 401,
 * raised as a TRPCError so that both transports report it with its own code.
 */
export async function actorFromAuthorization(db: Db, header: string | undefined): Promise<Actor> {
  if (!header) return ANONYMOUS;
  try {
    return await actorFromCredentials(db, header);
  } catch (error) {
    throw error instanceof DomainError ? asTrpcError(error) : error;
  }
}
