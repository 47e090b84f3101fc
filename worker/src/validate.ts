/**
 * The one validator every route reads its input with: a shared/api schema turns the request's JSON body, query or
 * path parameters into typed input (`c.req.valid(target)`), or the API's JSON:API 400 for the first fault, pointing at
 * it (`source.pointer` into the body, `source.parameter` for a query or path parameter). Query schemas are strict, so an
 * unknown parameter is refused too.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./env";
import { type ApiError, errorResponse, readJsonBody } from "./http";

/** Where the input comes from. */
export type Target = "json" | "query" | "param";

/** The body as read, or the error to answer instead (413 `body_too_large`, 400 `invalid_json`). */
export type BodyRead = { document: unknown } | { error: ApiError };

export interface ValidOptions {
  /** The code of every fault whose check names none of its own (`params.code`); default by kind (kindCode). */
  code?: string;
  /** Read the body (json only; default readJsonBody, JSON within MAX_BODY_BYTES). */
  read?: (c: Context<AppEnv>) => Promise<BodyRead>;
  /** Answer a refusal (default: the JSON:API error document). */
  refuse?: (c: Context<AppEnv>, error: ApiError, document: unknown) => Response;
}

/** JSON pointer of a member (RFC 6901: `~` → `~0`, `/` → `~1`). */
function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** The code a custom check names for its fault (`params.code`), if it names one. */
function ownCode(issue: z.core.$ZodIssue): string | undefined {
  const code = issue.code === "custom" ? (issue.params as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === "string" ? code : undefined;
}

/** The API's code for a fault by its kind: `too_long` for a length out of its bounds, else `invalid_type`. */
function kindCode(issue: z.core.$ZodIssue): string {
  return issue.code === "too_big" || issue.code === "too_small" ? "too_long" : "invalid_type";
}

/** The issue that names the fault: a record key's issue wraps the key schema's own; an unknown member is its own path. */
function innermost(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code === "invalid_key" && issue.issues[0]) return { ...issue.issues[0], path: issue.path };
  if (issue.code === "unrecognized_keys") return { ...issue, path: [...issue.path, issue.keys[0]] };
  return issue;
}

/**
 * A schema's first fault as the API's 400 error.
 * @param code the route's code for faults without their own (ValidOptions.code)
 */
export function issueError(issues: readonly z.core.$ZodIssue[], target: Target, code?: string): ApiError {
  const issue = innermost(issues[0]);
  // A check's own code first, then the route's, then the fault's kind.
  const error: ApiError = { status: 400, code: ownCode(issue) ?? code ?? kindCode(issue), detail: issue.message };
  if (target === "json") return { ...error, pointer: pointerOf(issue.path) };
  const parameter = issue.path[0];
  return parameter === undefined ? error : { ...error, detail: `${String(parameter)}: ${issue.message}`, parameter: String(parameter) };
}

/** The query as a record: a parameter given once is a string, one given more often an array (as Hono's validator reads it). */
function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

/**
 * Middleware that validates one part of the request with `schema` and hands the handler the parsed value
 * (`c.req.valid(target)`), or answers 400 (413 or 400 `invalid_json` for a body that cannot be read).
 */
export function valid<T extends Target, S extends z.ZodType>(
  target: T,
  schema: S,
  options: ValidOptions = {},
): MiddlewareHandler<AppEnv, string, { in: { [K in T]: z.input<S> }; out: { [K in T]: z.output<S> } }> {
  const refuse = options.refuse ?? ((_c, error) => errorResponse([error]));
  return async (c, next) => {
    let document: unknown;
    if (target === "json") {
      const read = await (options.read ?? ((context) => readJsonBody(context.req.raw)))(c);
      if ("error" in read) return refuse(c, read.error, undefined);
      document = read.document;
    } else document = target === "query" ? queryOf(c) : c.req.param();
    const parsed = await schema.safeParseAsync(document);
    if (!parsed.success) return refuse(c, issueError(parsed.error.issues, target, options.code), document);
    c.req.addValidatedData(target, parsed.data as object);
    await next();
  };
}
