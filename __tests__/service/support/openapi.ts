/**
 * Every answer the service tests receive, held to the API's OpenAPI descriptions (docs/openapi.json and
 * docs/openapi-console.json, built from shared/api's route table and schemas; a development route, in neither, to the
 * table itself): the status is one the route declares, and the body is the declared document, with no member the
 * schema does not name; a path that does not decode is 400 before any route.
 */
import { expect } from "vitest";
import committedConsole from "../../../docs/openapi-console.json";
import committed from "../../../docs/openapi.json";
import { ErrorDocument } from "../../../shared/api/errors";
import { COMMON_ERRORS, openApiPath } from "../../../shared/api/openapi";
import { API_ROUTES, type ApiRoute } from "../../../shared/api/routes";
import { JSON_API_CONTENT_TYPE } from "../../../shared/contract";

type Operations = Record<string, { responses: Record<string, unknown> }>;
type Paths = Record<string, Operations>;
const paths: Paths = { ...(committed as unknown as { paths: Paths }).paths, ...(committedConsole as unknown as { paths: Paths }).paths };

/** The statuses a route may answer: its description's, or for a development route (in neither) the table's. */
function declaredStatuses(route: ApiRoute, method: string): string[] {
  const described = paths[openApiPath(route.path)]?.[method]?.responses;
  if (described) return Object.keys(described);
  expect(route.development, `${route.id} is in a committed description (run \`npm run openapi\`)`).toBe(true);
  return [...Object.keys(route.answers), ...route.errors, ...COMMON_ERRORS].map(String);
}

/** A route's path pattern as a regular expression over a request's path. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/:\w+/g, "[^/]+")}$`);

/** The routes of the path the request reached (every method), most specific first. */
function routesOf(pathname: string): ApiRoute[] {
  return API_ROUTES.filter((route) => patternOf(route.path).test(pathname));
}

/** Whether a request path does not decode (percent-encoding that is not UTF-8): no route is asked, the answer is 400. */
export function undecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** Parse `text` as JSON with `schema`, and find no member the schema would drop. */
function expectDocument(
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } },
  text: string,
  what: string,
) {
  const json = JSON.parse(text) as unknown;
  const parsed = schema.safeParse(json);
  expect(parsed.error, `${what}: the body matches its schema`).toBeUndefined();
  expect(parsed.data, `${what}: the body has no member its schema does not declare`).toEqual(json);
}

/**
 * Check one answer against the description.
 * @returns the same answer for the test to read (its body read once here, not teed into a clone left unread)
 * @throws an assertion error naming the request when the status is not declared or the body not the declared document
 */
export async function declaredAnswer(request: Request, response: Response): Promise<Response> {
  const { pathname } = new URL(request.url);
  const what = `${request.method} ${pathname} → ${response.status}`;
  const text = await response.text();
  const answer = new Response(text === "" ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A static or published file (a draw's list from R2) is not the API's.
  if (!pathname.startsWith("/api/")) return answer;
  if (undecodable(pathname)) {
    expect(response.status, what).toBe(400);
    expect(response.headers.get("content-type"), what).toBe(JSON_API_CONTENT_TYPE);
    // A HEAD request's answer has no body.
    if (text !== "") expectDocument(ErrorDocument, text, what);
    return answer;
  }
  const routes = routesOf(pathname);
  const method = request.method === "HEAD" ? "get" : request.method.toLowerCase();
  const route = routes.find((candidate) => candidate.method === method);
  if (!route) {
    // A path the API does not have is 404; a method a path does not take, 405.
    expect(response.status, what).toBe(routes.length === 0 ? 404 : 405);
  } else {
    const declared = declaredStatuses(route, method);
    expect(declared, `${what}: the description declares that status`).toContain(String(response.status));
  }
  if (text === "") return answer;
  if (response.status >= 400) {
    expect(response.headers.get("content-type"), what).toBe(JSON_API_CONTENT_TYPE);
    expectDocument(ErrorDocument, text, what);
    return answer;
  }
  const schema = route?.answers[response.status]?.schema;
  if (schema) expectDocument(schema, text, what);
  return answer;
}
