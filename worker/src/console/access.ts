/**
 * Who may use the operator's console: every `/api/console/*` request is checked here before any handler runs, so a
 * refused request reads nothing. Cloudflare Access signs a JWT (`Cf-Access-Jwt-Assertion`) for every request it lets
 * through; the Worker verifies it anyway, since the Worker may be reached around Access. docs/operators.md: Who gets in.
 */
import type { MiddlewareHandler } from "hono";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { CONSOLE_ERROR_CODE, type ConsoleRole } from "../../../shared/console";
import { type AppEnv, isDevelopment, type Operator, type ServiceEnv } from "../env";
import { type ApiError, errorResponse, UNAVAILABLE, UNAVAILABLE_HEADERS } from "../http";
import { errorName, log } from "../log";
import { notFromAnotherSite } from "../middleware";

/** The header Access adds to every request it lets through. */
export const ACCESS_JWT_HEADER = "cf-access-jwt-assertion";

/** Where an Access team publishes its signing keys (a JWKS), under the team domain. */
export const ACCESS_CERTS_PATH = "/cdn-cgi/access/certs";

/**
 * One remote key set per team domain for the isolate's life: jose fetches the keys once, caches them and fetches
 * again when a token names a key it has not seen (Access rotates its keys), so a request rarely waits on the fetch.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(teamDomain: string): ReturnType<typeof createRemoteJWKSet> {
  let keySet = keySets.get(teamDomain);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(`${teamDomain}${ACCESS_CERTS_PATH}`));
    keySets.set(teamDomain, keySet);
  }
  return keySet;
}

/** The team domain as the JWT's issuer names it: an https origin without a trailing slash; null when unset. */
function teamDomainOf(env: ServiceEnv): string | null {
  const value = env.ACCESS_TEAM_DOMAIN?.trim().replace(/\/+$/, "");
  return value ? value : null;
}

/**
 * Whether keys may be fetched from this team domain: outside development only over https, since keys fetched over
 * plain http could be swapped on the way and every token signed with the swapped key would verify.
 */
function teamDomainTrusted(teamDomain: string, development: boolean): boolean {
  return development || teamDomain.startsWith("https://");
}

/**
 * The hosts the local operator is signed in on: loopback only, so a page on another site whose name an attacker
 * points at 127.0.0.1 (DNS rebinding) reaches the local console as a stranger, not as its operator.
 */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether the request came for a loopback host (its Host, any port). */
function forLoopbackHost(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname);
}

const refusal = (status: number, code: string, detail: string): Response => errorResponse([{ status, code, detail }]);

/** The operator a verified payload names: its `email`, or a service token's `common_name`; null when neither. */
function identityOf(payload: JWTPayload): string | null {
  for (const claim of ["email", "common_name"]) {
    const value = payload[claim];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return null;
}

/** The addresses (or service tokens' client ids) of CONSOLE_OPERATORS, lower case. */
function listedOperators(env: ServiceEnv): Set<string> {
  return new Set(
    (env.CONSOLE_OPERATORS ?? "")
      .split(/[\s,]+/)
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * The role Access's token gives: `operator` when the identity is listed in CONSOLE_OPERATORS or the token's `groups`
 * claim holds CONSOLE_OPERATOR_GROUP; `viewer` otherwise (so with neither configured nobody can act: fail closed).
 */
function roleOf(env: ServiceEnv, id: string, payload: JWTPayload): ConsoleRole {
  if (listedOperators(env).has(id.toLowerCase())) return "operator";
  const group = env.CONSOLE_OPERATOR_GROUP?.trim();
  const groups = payload.groups;
  if (group && Array.isArray(groups) && groups.some((member) => member === group)) return "operator";
  return "viewer";
}

/**
 * Every console read (GET) refuses another site's page, the launch's and the draw's included (what writes refuses it
 * through sameOrigin).
 */
export const consolePage = notFromAnotherSite("The console answers only its own page.");

/**
 * Only an `operator` passes (after consoleAccess): a viewer is 403 `operator_role_required`, before anything is read
 * or written.
 */
export const operatorRole: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.operator.role !== "operator")
    return refusal(403, CONSOLE_ERROR_CODE.operatorRoleRequired, "Only an operator may do this; a viewer may look.");
  await next();
};

/** A failed verification as the answer: another audience is 403, any other token fault 401, a key set unreachable 503. */
function verificationFailure(error: unknown): Response {
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === "aud")
    return refusal(403, CONSOLE_ERROR_CODE.accessDenied, "The Access token is for another application.");
  if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout))
    return refusal(401, CONSOLE_ERROR_CODE.accessTokenInvalid, "The Access token does not verify (signature, expiry, issuer or form).");
  // The team's keys could not be fetched (a timeout, a network error, a key set that is not JSON).
  log("console_access_keys_unavailable", { reason: errorName(error) });
  const unavailable: ApiError = { ...UNAVAILABLE, detail: "The Access signing keys cannot be fetched; try again shortly." };
  return errorResponse([unavailable], UNAVAILABLE_HEADERS);
}

/**
 * The console's gate, as Hono middleware on `${CONSOLE_API}/*`. It sets `c.var.operator` or answers a JSON:API error:
 * - 503 `not_configured`: outside development (env.ts: isDevelopment) without ACCESS_TEAM_DOMAIN and ACCESS_AUD, or
 *   with a team domain that is not https (fail closed); in development when a token came but there is nothing to
 *   check it against;
 * - 401 `access_token_missing`: no token (in development, on a loopback host, CONSOLE_LOCAL_OPERATOR signs its
 *   operator in instead);
 * - 401 `access_token_invalid`: a bad signature (another key), expired, another issuer, or not a JWT;
 * - 403 `access_denied`: a valid token of another Access application (audience), or one without an identity;
 * and the operator's role (roleOf; operatorRole refuses a viewer where only an operator may go);
 * - 503 `unavailable`: the team's keys cannot be fetched.
 */
export const consoleAccess: MiddlewareHandler<AppEnv> = async (c, next) => {
  const development = isDevelopment(c.env);
  const teamDomain = teamDomainOf(c.env);
  const audience = c.env.ACCESS_AUD?.trim() ?? "";
  const configured = teamDomain !== null && audience !== "";
  if (!development && !configured) {
    log("console_not_configured", {
      missing: [teamDomain ? "" : "ACCESS_TEAM_DOMAIN", audience ? "" : "ACCESS_AUD"].filter(Boolean).join(" "),
    });
    return refusal(503, CONSOLE_ERROR_CODE.notConfigured, "The console is closed until Cloudflare Access is configured for it.");
  }
  if (teamDomain !== null && !teamDomainTrusted(teamDomain, development)) {
    log("console_not_configured", { problem: "ACCESS_TEAM_DOMAIN is not https:// (e.g. https://<team>.cloudflareaccess.com)" });
    return refusal(503, CONSOLE_ERROR_CODE.notConfigured, "The console is closed: ACCESS_TEAM_DOMAIN must be an https:// address.");
  }
  const token = c.req.header(ACCESS_JWT_HEADER)?.trim() ?? "";
  let operator: Operator;
  if (token === "") {
    const local = c.env.CONSOLE_LOCAL_OPERATOR?.trim();
    // Only on `npm start`, for a loopback host: anywhere else a token is the only way in.
    if (!development || !local || !forLoopbackHost(c.req.url))
      return refusal(401, CONSOLE_ERROR_CODE.accessTokenMissing, "Sign in through Cloudflare Access.");
    operator = { id: local, local: true, role: c.env.CONSOLE_LOCAL_ROLE?.trim() === "viewer" ? "viewer" : "operator" };
  } else {
    if (!configured) return refusal(503, CONSOLE_ERROR_CODE.notConfigured, "ACCESS_TEAM_DOMAIN and ACCESS_AUD are not set.");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySetOf(teamDomain), { issuer: teamDomain, audience, algorithms: ["RS256"] }));
    } catch (error) {
      return verificationFailure(error);
    }
    const id = identityOf(payload);
    if (id === null) return refusal(403, CONSOLE_ERROR_CODE.accessDenied, "The Access token names no operator.");
    operator = { id, local: false, role: roleOf(c.env, id, payload) };
  }
  c.set("operator", operator);
  await next();
};
