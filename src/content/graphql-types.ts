/** GraphQL types of the `SiteContent` node, derived from the JSON Schema so the model is declared once. Build-time only. */
import { z } from "zod";
import { pageContentSchema } from "./schema";

/** The GraphQL type name of the one content node. */
export const SITE_CONTENT_TYPE = "SiteContent";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

const SCALARS: Record<string, string> = { string: "String", boolean: "Boolean", integer: "Int", number: "Float" };

/** Fields computed at build time by gatsby-node (not written by editors). */
const DERIVED_SDL = `
type ${SITE_CONTENT_TYPE}Derived {
  "The launch moment in ms since the Unix epoch."
  launchAtMs: Float!
  "When this build ran, in ms since the Unix epoch (the prerendered countdown's 'now')."
  builtAtMs: Float!
  "home.countdown.label with {date} replaced by the launch date and time, on the clock of launch.moment's own offset (e.g. June 1, 2030 at 12:00 PM UTC-07:00)."
  countdownLabel: String!
  "true when signups are simulated (provider.demoMode, or no list id, or for Klaviyo's own transports no public API key)."
  demoMode: Boolean!
  "The page this content is for: / for the site's own signup page (also feeding /success/ and 404), /<slug>/ for a campaign's."
  pagePath: String!
  "The Cloudflare Turnstile script the signup form loads after the first paint, or null when the form has no Turnstile widget."
  turnstileScriptUrl: String
}`;

/**
 * SDL for `SiteContent` (a `Node`, `@dontInfer`; one per signup page, `campaign`
 * null on the site's own) and its nested object types.
 * Required fields in the schema are non-null (`!`), optional ones nullable.
 * @returns a GraphQL SDL string
 * @throws Error when the schema uses a JSON Schema construct with no GraphQL mapping
 */
export function siteContentTypeDefs(): string {
  const root = z.toJSONSchema(pageContentSchema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const types: string[] = [];

  const typeOf = (schema: JsonSchema, name: string): string => {
    const variants = schema.anyOf?.filter((s) => s.type !== "null");
    if (variants?.length === 1) return typeOf(variants[0], name);
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
    if (type === "object") {
      declare(schema, name);
      return name;
    }
    if (type === "array" && schema.items) return `[${typeOf(schema.items, name)}!]`;
    if (type && SCALARS[type]) return SCALARS[type];
    throw new Error(`No GraphQL type for ${name}: ${JSON.stringify(schema)}`);
  };

  const declare = (schema: JsonSchema, name: string, header = `type ${name}`) => {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, child]) => {
      const childName = `${name}${key[0].toUpperCase()}${key.slice(1)}`;
      const nullable = !required.has(key) || child.anyOf?.some((s) => s.type === "null");
      return `  ${key}: ${typeOf(child, childName)}${nullable ? "" : "!"}`;
    });
    if (name === SITE_CONTENT_TYPE) fields.push(`  derived: ${SITE_CONTENT_TYPE}Derived!`);
    types.push(`${header} {\n${fields.join("\n")}\n}`);
  };

  declare(root, SITE_CONTENT_TYPE, `type ${SITE_CONTENT_TYPE} implements Node @dontInfer`);
  return [...types.reverse(), DERIVED_SDL].join("\n\n");
}
