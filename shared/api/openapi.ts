/**
 * The API's two OpenAPI 3.1 descriptions, built from the route table (routes.ts) and its zod schemas with zod's own
 * JSON Schema output (JSON Schema 2020-12, OpenAPI 3.1's dialect):
 * - the public one, served at GET /api/openapi.json and written to docs/openapi.json;
 * - the console's, served at GET /api/console/openapi.json (on the console's host, behind Access) and written to
 *   docs/openapi-console.json.
 * Development routes are in neither. `npm run openapi` writes both files; a service test holds each equal to what the
 * Worker serves.
 */
import { z } from "zod";
import { JSON_API_CONTENT_TYPE, JSON_CONTENT_TYPE } from "../contract";
import * as consoleDocuments from "./console";
import * as drawDocuments from "./draw";
import * as errorDocuments from "./errors";
import { ErrorDocument } from "./errors";
import * as hookDocuments from "./hooks";
import * as launchDocuments from "./launch";
import * as referralDocuments from "./referrals";
import { API_ROUTES, type ApiRoute, audienceOf, ERROR_STATUSES, type Security } from "./routes";
import * as signupDocuments from "./signups";

/** This description's own version: bump it with a change a client must know of. */
export const API_VERSION = "1.0.0";

/** Every schema of shared/api by its export name: a component takes its schema's name. */
const SCHEMAS: Record<string, unknown> = {
  ...signupDocuments,
  ...referralDocuments,
  ...hookDocuments,
  ...consoleDocuments,
  ...drawDocuments,
  ...launchDocuments,
  ...errorDocuments,
};

/** Every route's error statuses besides its own. */
export const COMMON_ERRORS = [405, 500];

type JsonSchema = Record<string, unknown>;

/** A path as OpenAPI writes it: `/people/:id` → `/people/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

const SECURITY_SCHEMES: Record<Security, JsonSchema> = {
  statusToken: { type: "http", scheme: "bearer", description: "The status token of the person's `/status/#t=<token>` link." },
  webhookSecret: { type: "http", scheme: "bearer", description: "KLAVIYO_WEBHOOK_SECRET, as the Klaviyo flow sends it." },
  access: { type: "apiKey", in: "header", name: "Cf-Access-Jwt-Assertion", description: "The JWT Cloudflare Access signs." },
  checkInSecret: { type: "http", scheme: "bearer", description: "LAUNCH_CHECKIN_SECRET, as the firm's product sends it." },
};

/**
 * The named schemas of one side (requests read as input, answers written as output), as components, with every
 * schema among them that another uses as a `$ref`.
 */
function components(named: Map<z.ZodType, string>, io: "input" | "output"): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  // OpenAPI names a component by its key; the document declares the dialect once (jsonSchemaDialect's default).
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

/** A query or path schema as OpenAPI parameters. */
function parameters(schema: z.ZodType | undefined, location: "query" | "path"): JsonSchema[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (json.required ?? []).includes(name),
    schema: property,
  }));
}

/** The component names of the schemas `pick` takes from each route: their export names, found by identity. */
function namesOf(routes: readonly ApiRoute[], pick: (route: ApiRoute) => z.ZodType[]): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  for (const route of routes)
    for (const schema of pick(route)) {
      const name = Object.entries(SCHEMAS).find(([, value]) => value === schema)?.[0];
      if (!name) throw new Error(`A schema of ${route.id} is not exported from shared/api.`);
      names.set(schema, name);
    }
  return names;
}

/** The audiences with a description of their own: every one but development. */
export type Described = "public" | "console";

/** What each description is titled and says of itself. */
const DESCRIPTIONS: Record<Described, { title: string; description: string }> = {
  public: {
    title: "Waitlist API",
    description:
      "The waitlist service's public API (docs/api.md): the site's pages, Klaviyo's webhook and the firm's check-in. Errors are JSON:API error documents.",
  },
  console: {
    title: "Waitlist console API",
    description:
      "The operator's console's API (docs/operators.md), on the console's own host behind Cloudflare Access. Errors are JSON:API error documents.",
  },
};

/** The routes one description lists, in the table's order. */
function describedRoutes(audience: Described): ApiRoute[] {
  return API_ROUTES.filter((route) => audienceOf(route) === audience);
}

/**
 * One OpenAPI 3.1 document, as JSON: the routes of `audience`, the schemas they name and their security schemes.
 * @throws when a route's body or answer schema is not exported from shared/api
 */
export function openApiDocument(audience: Described): JsonSchema {
  const routes = describedRoutes(audience);
  const requestNames = namesOf(routes, (route) => Object.values(route.body ?? {}));
  const answerNames = namesOf(routes, (route) => [
    ErrorDocument,
    ...Object.values(route.answers).flatMap((answer) => (answer.schema ? [answer.schema] : [])),
  ]);
  const ref = (names: Map<z.ZodType, string>, schema: z.ZodType) => ({ $ref: `#/components/schemas/${names.get(schema)}` });
  const errorAnswer = (status: number) => ({
    description: ERROR_STATUSES[status],
    content: { [JSON_API_CONTENT_TYPE]: { schema: ref(answerNames, ErrorDocument) } },
  });

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, answer] of Object.entries(route.answers))
      responses[status] = {
        description: answer.description,
        ...(answer.schema ? { content: { [JSON_CONTENT_TYPE]: { schema: ref(answerNames, answer.schema) } } } : {}),
      };
    for (const status of [...new Set([...route.errors, ...COMMON_ERRORS])].sort()) responses[String(status)] = errorAnswer(status);
    const body = Object.entries(route.body ?? {});
    (paths[openApiPath(route.path)] ??= {})[route.method] = {
      operationId: route.id,
      summary: route.summary,
      tags: [route.tag],
      ...(route.security ? { security: [{ [route.security]: [] }] } : {}),
      ...(route.params || route.query ? { parameters: [...parameters(route.params, "path"), ...parameters(route.query, "query")] } : {}),
      ...(body.length > 0
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(body.map(([type, schema]) => [type, { schema: ref(requestNames, schema) }])),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { ...DESCRIPTIONS[audience], version: API_VERSION },
    paths,
    components: {
      schemas: { ...components(requestNames, "input"), ...components(answerNames, "output") },
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).filter(([scheme]) => routes.some(({ security }) => security === scheme)),
      ),
    },
  };
}
