/**
 * `/admin/config.yml` for Decap CMS, generated from the content schema so the form has exactly
 * the schema's fields, hints and patterns. Build-time only.
 */
import { stringify } from "yaml";
import { CAMPAIGNS_FOLDER } from "./campaigns";
import { campaignJsonSchema, contentJsonSchema } from "./json-schema";
import { DEFAULT_CONTENT_FILE } from "./derive";

/** The part of a JSON Schema (as z.toJSONSchema writes it) that the form is built from. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  pattern?: string;
  patternErrorMessage?: string;
  enum?: unknown[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  "x-multiline"?: boolean;
  /** Set by developers only (schema.ts: developerOnly): left out of the form. */
  "x-developer-only"?: boolean;
}

/** One field of a Decap CMS form (the options used here; see Decap's widget reference). */
export interface DecapField {
  name: string;
  label: string;
  widget: "string" | "text" | "select" | "boolean" | "number" | "list" | "object";
  hint?: string;
  required: boolean;
  /** [regular expression, message shown under the field when the value does not match] */
  pattern?: [string, string];
  default?: unknown;
  /** select: the values offered, in the schema's order (the first is the recommended one). */
  options?: string[];
  value_type?: "int" | "float";
  /** list: the one field each item is; object: its fields */
  field?: DecapField;
  fields?: DecapField[];
  min?: number;
  max?: number;
  collapsed?: boolean;
}

/** A Decap CMS collection: a list of named files, or a folder of like files. */
export type DecapCollection = {
  name: string;
  label: string;
  description?: string;
  /** How the files are read and written: CONTENT_FORMAT, registered by /admin/editor.js. */
  format: string;
} & (
  | { files: { name: string; label: string; file: string; fields: DecapField[] }[] }
  | {
      /** The folder, relative to the repository root. */
      folder: string;
      extension: string;
      label_singular: string;
      /** Editors may add entries (new files). */
      create: boolean;
      /** The field an entry is listed by, and its file name is made from. */
      identifier_field: string;
      /** The new file's name: Decap turns the identifier into lowercase letters, digits and hyphens. */
      slug: string;
      fields: DecapField[];
    }
);

/** Where the web editor saves. */
export type CmsBackend =
  /** GitHub: each editor signs in with a GitHub account that can write to `repo`, through an OAuth client at `authBaseUrl`. */
  | { name: "github"; repo: string; branch: string; authBaseUrl?: string }
  /** Netlify's Git Gateway with Netlify Identity: editors need no GitHub account. */
  | { name: "git-gateway"; branch: string };

/** Everything besides the schema that shapes config.yml. */
export interface CmsOptions {
  backend: CmsBackend;
  /** Every save becomes a branch and a pull request instead of a commit on `branch`. */
  editorialWorkflow: boolean;
  /** decap-server's API address, for trying the editor on one's own machine (`npm run cms`); left out of production builds. */
  localBackendUrl?: string;
}

/** The port `decap-server` listens on (its default), used by `npm run cms`. */
export const DECAP_SERVER_PORT = 8081;
/** decap-server's API on this machine. 127.0.0.1 rather than localhost: the server is bound to IPv4 loopback only. */
export const LOCAL_BACKEND_URL = `http://127.0.0.1:${DECAP_SERVER_PORT}/api/v1`;

/** Words a label writes in capitals (field names are camelCase: `publicApiKey` → "Public API key"). */
const ACRONYMS: Record<string, string> = { api: "API", id: "ID", url: "URL", ssl: "SSL", gdpr: "GDPR" };

/** "publicApiKey" → "Public API key". */
export function labelFor(name: string): string {
  const words = name.split(/(?<=[a-z0-9])(?=[A-Z])/).map((word) => ACRONYMS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The non-null variant of `nullable` fields (z.toJSONSchema writes them as anyOf [T, null]). */
function withoutNull(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf?.filter((variant) => variant.type !== "null");
  if (variants?.length === 1) return { ...variants[0], ...withoutKeys(schema, ["anyOf"]) };
  return schema;
}

function withoutKeys(schema: JsonSchema, keys: (keyof JsonSchema)[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key as keyof JsonSchema)));
}

/**
 * One form field for the property `name` of a JSON Schema.
 * @throws Error naming the field when its type has no widget here (add one before using such a type)
 */
export function decapField(name: string, property: JsonSchema, required: boolean): DecapField {
  const schema = withoutNull(property);
  const base = {
    name,
    label: schema.title ?? labelFor(name),
    ...(schema.description ? { hint: schema.description } : {}),
    required,
  };
  const pattern = schema.pattern
    ? {
        pattern: [schema.pattern, schema.patternErrorMessage ?? `This does not have the expected form (${schema.pattern}).`] as [
          string,
          string,
        ],
      }
    : {};
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      // A fixed set of words (provider.transport, referrals.countAfter) is a drop-down: nothing to misspell.
      if (schema.enum)
        return {
          ...base,
          widget: "select",
          options: schema.enum.map(String),
          ...(schema.default !== undefined ? { default: schema.default } : {}),
        };
      return { ...base, widget: schema["x-multiline"] ? "text" : "string", ...pattern };
    case "boolean":
      return { ...base, widget: "boolean", ...(schema.default !== undefined ? { default: schema.default } : {}) };
    case "integer":
    case "number":
      return {
        ...base,
        widget: "number",
        value_type: type === "integer" ? "int" : "float",
        ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
        // zod writes the largest safe integer as every whole number's maximum: no limit an editor would meet.
        ...(schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? { max: schema.maximum } : {}),
      };
    case "object":
      return { ...base, widget: "object", collapsed: false, fields: decapFields(schema) };
    case "array": {
      if (!schema.items) break;
      return {
        ...base,
        widget: "list",
        // Decap names the one field every item is; its value is saved as the item itself.
        field: decapField(`${name}Item`, schema.items, true),
        ...(schema.minItems !== undefined ? { min: schema.minItems } : {}),
        ...(schema.maxItems !== undefined ? { max: schema.maxItems } : {}),
      };
    }
  }
  throw new Error(`The web editor has no form widget for the field ${name} (${JSON.stringify(property)}). Add one to decapField().`);
}

/**
 * The form fields for every property of an object schema, in the schema's order, but the developers' own settings
 * (`x-developer-only`): the form never shows them, and a save keeps their values as the file has them (Decap keeps
 * keys its config does not declare; our format writes them in the schema's order, keyOrder).
 */
export function decapFields(schema: JsonSchema): DecapField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => !withoutNull(property)["x-developer-only"])
    .map(([name, property]) => decapField(name, property, required.has(name)));
}

/**
 * The name of our YAML format (src/build/admin-page/content-format.js), which keeps the
 * schema's key order and layout and reads dates as text; Decap's own `yaml` does neither.
 */
export const CONTENT_FORMAT = "content-yaml";

/** The schema's key order, nested: `{ site: { url: null, … }, … }` (see content-format.js). */
export type KeyOrder = { [key: string]: KeyOrder | null };

/** The key order of an object schema's properties, recursively. */
export function keyOrder(schema: JsonSchema): KeyOrder {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, property]) => {
      const inner = withoutNull(property);
      return [key, inner.properties ? keyOrder(inner) : null];
    }),
  );
}

/** The collection of the site's one content file, `content/site.yaml`. */
export function siteCollection(): DecapCollection {
  const schema = contentJsonSchema() as JsonSchema;
  return {
    name: "site",
    label: "Site",
    format: CONTENT_FORMAT,
    ...(schema.description ? { description: schema.description } : {}),
    files: [{ name: "site", label: "Site content", file: DEFAULT_CONTENT_FILE.split("\\").join("/"), fields: decapFields(schema) }],
  };
}

/**
 * The collection of the campaign pages: every `content/campaigns/<slug>.yaml`, one
 * entry each. A new entry's file name (its page's address) is made from its
 * `campaign.source`, which Decap writes in lowercase letters, digits and hyphens;
 * the build checks the name as it checks any campaign file's.
 */
export function campaignsCollection(): DecapCollection {
  const schema = campaignJsonSchema() as JsonSchema;
  return {
    name: "campaigns",
    label: "Campaign pages",
    label_singular: "Campaign page",
    ...(schema.description ? { description: schema.description } : {}),
    folder: `${DEFAULT_CONTENT_FILE.split("\\")
      .join("/")
      .replace(/[^/]+$/, "")}${CAMPAIGNS_FOLDER}`,
    extension: "yaml",
    format: CONTENT_FORMAT,
    create: true,
    identifier_field: "campaign.source",
    slug: "{{slug}}",
    fields: decapFields(schema),
  };
}

/**
 * The web editor's configuration, as an object.
 * `media_folder` is required by Decap; uploads (none of our fields take one) would land in `static/`.
 */
export function cmsConfig(
  options: CmsOptions,
  collections: DecapCollection[] = [siteCollection(), campaignsCollection()],
): Record<string, unknown> {
  const { backend } = options;
  return {
    backend:
      backend.name === "github"
        ? { name: "github", repo: backend.repo, branch: backend.branch, ...(backend.authBaseUrl ? { base_url: backend.authBaseUrl } : {}) }
        : { name: "git-gateway", branch: backend.branch },
    ...(options.editorialWorkflow ? { publish_mode: "editorial_workflow" } : {}),
    ...(options.localBackendUrl ? { local_backend: { url: options.localBackendUrl } } : {}),
    media_folder: "static",
    public_folder: "/",
    collections,
  };
}

/** config.yml's text: cmsConfig() written with the `yaml` package, under a do-not-edit note. */
export function cmsConfigYaml(options: CmsOptions, collections?: DecapCollection[]): string {
  return `# Written by the build from the content schema (src/content/cms-config.ts). Do not edit: changes are overwritten.\n${stringify(cmsConfig(options, collections), { lineWidth: 0 })}`;
}

/**
 * The backend from the build's environment (CONTENT.md "7. Setting up the web editor").
 * @throws Error when CMS_GITHUB_REPO is not of the form owner/name, or CMS_AUTH_BASE_URL is not https
 */
export function cmsOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): CmsOptions {
  const branch = env.CMS_BRANCH?.trim() || "main";
  const repo = env.CMS_GITHUB_REPO?.trim();
  const authBaseUrl = env.CMS_AUTH_BASE_URL?.trim() || undefined;
  if (repo && !/^[\w.-]+\/[\w.-]+$/.test(repo))
    throw new Error(`CMS_GITHUB_REPO="${repo}" must be the repository as owner/name, e.g. pickfund/waitlist.`);
  if (authBaseUrl && !/^https:\/\/\S+$/.test(authBaseUrl))
    throw new Error(`CMS_AUTH_BASE_URL="${authBaseUrl}" must be the https:// address of the OAuth client.`);
  const backend: CmsBackend = repo ? { name: "github", repo, branch, authBaseUrl } : { name: "git-gateway", branch };
  return { backend, editorialWorkflow: /^(1|true|yes)$/i.test(env.CMS_EDITORIAL_WORKFLOW?.trim() ?? "") };
}

/**
 * Hosts the editor's page must reach for this backend (its CSP `connect-src`, beside 'self'):
 * GitHub's API and avatars for GitHub; Git Gateway and Netlify Identity live on the site's own origin.
 */
export function cmsBackendOrigins(backend: CmsBackend): { connect: string[]; img: string[] } {
  return backend.name === "github"
    ? { connect: ["https://api.github.com"], img: ["https://avatars.githubusercontent.com"] }
    : { connect: [], img: [] };
}
