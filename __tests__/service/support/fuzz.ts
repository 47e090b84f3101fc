/**
 * The API fuzz test's requests (api-fuzz.test.ts): fast-check arbitraries derived from shared/api's zod schemas (their
 * JSON Schema, `z.toJSONSchema`, turned into arbitraries), mixed with hostile values, as plain request descriptions
 * that fast-check can shrink and print; and the store's state, compared around a refused request.
 */
import fc from "fast-check";
import { z } from "zod";
import { DRAW_RUN_REFUSED_ACTION } from "../../../shared/giveaway/commit";
import { DEAD_LETTER_QUEUE, type WaitlistService } from "./service";

type JsonSchema = z.core.JSONSchema._JSONSchema;

/** Every method a request may carry; HEAD and OPTIONS included (there is no CORS preflight to answer). */
export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** How deep the deeply nested documents go: far past anything a member of the API holds. */
export const NESTING_DEPTH = 1_000;
/** The large body's size (bytes): over the API's body limit many times. */
export const LARGE_BODY_BYTES = 1_048_576;

/** Text that has broken parsers and logs: control and bidirectional characters, lone surrogates, a BOM, odd spaces. */
export const HOSTILE_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0007\u0008\u001b[31m",
  "line\nbreak\r\n",
  "\t",
  "\u001f",
  "\u007f",
  "\u202e",
  "moc.elpmaxe@\u202e",
  "\u2066isolate\u2069",
  "\u200b\u200d\ufeff",
  "\ud800",
  "\udfff",
  "a\ud83d",
  "\u00a0\u3000",
  "%00",
  "%",
  "__proto__",
  "constructor",
  "' OR 1=1 --",
  "<script>",
  "😀".repeat(300),
  "x".repeat(10_000),
] as const;

/** Values of every JSON type, the largest and odd numbers among them. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  0.1,
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  [],
  [null],
  {},
  { a: 1 },
  ...HOSTILE_TEXT,
];

/** Number tokens as JSON text: what JSON.stringify cannot write (-0, NaN, 2**53+1 as typed, overflowing and underflowing ones). */
const RAW_NUMBERS = [
  "-0",
  "NaN",
  "Infinity",
  "9007199254740993",
  "1e308",
  "1e309",
  "-1e309",
  "1e-400",
  "123456789012345678901234567890",
  "0.0",
];

/** Text with each lone surrogate replaced by U+FFFD, so that encodeURIComponent takes it (String#toWellFormed). */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** A JSON value of any type, hostile ones often. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_VALUES) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Text: short and long, any code unit (lone surrogates too), and the hostile list. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: 400, maxLength: 600 }),
  fc.constantFrom(...HOSTILE_TEXT),
);

/**
 * An arbitrary of the values a JSON Schema (as `z.toJSONSchema` writes it for a request's input) accepts. Strings
 * include the hostile text: it is text to the schema, and the rules behind it must refuse it cleanly.
 */
export function valuesOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (typeof schema === "boolean") return schema ? anyValue : fc.constant(undefined);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map(valuesOf));
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length === 0) return anyValue;
  return fc.oneof(...types.map((type) => valuesOfType(type, schema)));
}

function valuesOfType(type: string, schema: z.core.JSONSchema.JSONSchema): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return schema.pattern
        ? fc.oneof(fc.stringMatching(new RegExp(schema.pattern)), anyText)
        : fc.oneof(fc.string({ minLength: schema.minLength, maxLength: schema.maxLength }), anyText);
    case "number":
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "integer":
      return fc.integer({ min: schema.minimum, max: schema.maximum });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schema.items && !Array.isArray(schema.items) ? valuesOf(schema.items) : anyValue, { maxLength: 4 });
    case "object": {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, member]) => [name, valuesOf(member)]));
      const record = fc.record(properties, { requiredKeys: schema.required ?? [] });
      return schema.additionalProperties === false
        ? record
        : fc.tuple(record, fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 2 })).map(([known, extra]) => ({
            ...extra,
            ...known,
          }));
    }
    default:
      return anyValue;
  }
}

/** The JSON Schema of a request's input (body, query or path), as a client writes it. */
export function inputSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
}

/** A JSON document's members as text (`[name, JSON text]`), so a member can hold what JSON.stringify cannot write. */
export type Members = [string, string][];

/**
 * A request body, described so that fast-check prints it short: the large and nested ones are built when sent.
 * - `members`: a JSON object written member by member (duplicate names and raw number tokens allowed);
 * - `text`: the body as it is (invalid JSON, a form, another format);
 * - `nested`: `depth` arrays inside each other, as the whole body or as one member's value;
 * - `large`: a JSON object whose one member is `bytes` long.
 */
export type BodySpec = { members: Members } | { text: string } | { nested: number; member?: string } | { large: number; member: string };

/** The bytes a body description stands for. */
export function bodyText(body: BodySpec): string {
  if ("members" in body) return `{${body.members.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(",")}}`;
  if ("text" in body) return body.text;
  if ("nested" in body) {
    const value = `${"[".repeat(body.nested)}${"]".repeat(body.nested)}`;
    return body.member === undefined ? value : `{${JSON.stringify(body.member)}:${value}}`;
  }
  return `{${JSON.stringify(body.member)}:"${"a".repeat(body.large)}"}`;
}

/** A document's members as text. */
export function membersOf(document: Record<string, unknown>): Members {
  return Object.entries(document).map(([name, value]) => [name, JSON.stringify(value)]);
}

/**
 * Bodies for a JSON route: documents its schema accepts, and a valid `sample` mutated (a member of the wrong type or
 * a hostile value, missing, extra, given twice, a raw number token), plus bodies that are not its document at all.
 */
export function jsonBodies(schema: z.ZodType, sample: Record<string, unknown>): fc.Arbitrary<BodySpec> {
  const names = [...new Set([...Object.keys(sample), ...Object.keys(propertiesOf(schema))])];
  const name = fc.constantFrom(...names);
  const fromSchema = valuesOf(inputSchemaOf(schema)).map((document) =>
    document !== null && typeof document === "object" && !Array.isArray(document)
      ? { members: membersOf(document as Record<string, unknown>) }
      : { text: JSON.stringify(document) ?? "" },
  );
  const base = membersOf(sample);
  const replaced = (member: string, value: string): Members => [...base.filter(([other]) => other !== member), [member, value]];
  return fc.oneof(
    { weight: 3, arbitrary: fromSchema },
    { weight: 1, arbitrary: fc.constant({ members: base }) },
    {
      weight: 3,
      arbitrary: fc.tuple(name, anyValue).map(([member, value]) => ({ members: replaced(member, JSON.stringify(value) ?? "null") })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(name, fc.constantFrom(...RAW_NUMBERS)).map(([member, token]) => ({ members: replaced(member, token) })),
    },
    { weight: 1, arbitrary: name.map((member) => ({ members: base.filter(([other]) => other !== member) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 12 }), anyValue)
        .map(([member, value]) => ({ members: [...base, [member, JSON.stringify(value) ?? "null"]] as Members })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(name, anyValue)
        .map(([member, value]) => ({ members: [...base, [member, JSON.stringify(value) ?? "null"]] as Members })),
    },
    { weight: 1, arbitrary: fc.option(name, { nil: undefined }).map((member) => ({ nested: NESTING_DEPTH, member })) },
    { weight: 1, arbitrary: name.map((member) => ({ large: LARGE_BODY_BYTES, member })) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.constantFrom("", "{", "null", "[]", "1", '"text"', "{}", "{'a':1}", "\ufeff{}"), fc.string())
        .map((text) => ({ text })),
    },
  );
}

/** The members a body schema names (its JSON Schema's properties). */
function propertiesOf(schema: z.ZodType): Record<string, unknown> {
  const json = inputSchemaOf(schema);
  return typeof json === "object" ? (json.properties ?? {}) : {};
}

/** A query string's parameters as they go on the wire: name and value already percent-encoded, or raw on purpose. */
export type QueryPairs = [string, string | null][];

/** Percent-encodings that decode to nothing valid, and other odd query fragments. */
const RAW_QUERY_PARTS = ["%", "%zz", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "%00", "%FF", "+", "%2B", "a%2", "%%", "="];

/** The text of a query (`?…`, or "" without parameters). */
export function queryText(pairs: QueryPairs): string {
  if (pairs.length === 0) return "";
  return `?${pairs.map(([name, value]) => (value === null ? name : `${name}=${value}`)).join("&")}`;
}

/**
 * Query strings for a route's query schema (none: a route that takes no parameters): values it accepts (and `sample`,
 * a query its rules take), the same parameter repeated, unknown parameters, bare names and broken percent-encodings.
 */
export function queries(schema?: z.ZodType, sample?: Record<string, string>): fc.Arbitrary<QueryPairs> {
  const known = Object.keys(schema ? propertiesOf(schema) : {});
  const encoded = anyText.map((text) => encodeURIComponent(wellFormed(text)));
  const value = fc.oneof(encoded, fc.constantFrom(...RAW_QUERY_PARTS));
  const valid = schema
    ? valuesOf(inputSchemaOf(schema)).map((query) =>
        Object.entries(query as Record<string, unknown>).map(([name, text]): [string, string] => [
          name,
          encodeURIComponent(wellFormed(String(text))),
        ]),
      )
    : fc.constant<[string, string][]>([]);
  const sampled = sample
    ? fc.oneof(valid, fc.constant(Object.entries(sample).map(([name, text]): [string, string] => [name, encodeURIComponent(text)])))
    : valid;
  const name = known.length > 0 ? fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 6 })) : fc.string({ maxLength: 6 });
  const pair = fc.tuple(
    fc.oneof(
      name.map((text) => encodeURIComponent(wellFormed(text))),
      fc.constantFrom(...RAW_QUERY_PARTS),
    ),
    fc.option(value, { nil: null }),
  );
  return fc.oneof(
    { weight: 3, arbitrary: sampled },
    { weight: 1, arbitrary: fc.constant<QueryPairs>([]) },
    { weight: 2, arbitrary: fc.tuple(sampled, fc.array(pair, { minLength: 1, maxLength: 3 })).map(([good, odd]) => [...good, ...odd]) },
    { weight: 1, arbitrary: sampled.map((good) => [...good, ...good]) },
  );
}

/** Path ids: any text (encoded), and raw odd segments: broken or encoded-away encodings, dots, a slash, a long one. */
export const pathIds: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: anyText.map((text) => encodeURIComponent(wellFormed(text))) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "%",
      "%zz",
      "%ED%A0%80",
      "%F0%9F%98",
      "%00",
      "..",
      "%2e%2e",
      ".",
      "%2F",
      "a%2Fb",
      "%252F",
      "%20",
      "-1",
      "0",
      "1e308",
      "NaN",
      "null",
      "x".repeat(5_000),
    ),
  },
);

/** A request as fast-check prints it: the client's address is chosen when sent (`ip: "fresh"`), the body described. */
export interface RequestSpec {
  method: string;
  path: string;
  query: QueryPairs;
  headers: Record<string, string>;
  /** CF-Connecting-IP: "fresh" for an address no other request used, null for none, else that value. */
  ip: string | null;
  body?: BodySpec;
}

/**
 * Variations of the headers a legitimate caller sends: each one kept, left out or changed (Origin to another site or
 * `null`, Content-Type to another type, the bearer token to another).
 */
export function headerVariants(
  legitimate: Record<string, string>,
  alternatives: Record<string, string[]>,
): fc.Arbitrary<Record<string, string>> {
  const names = [...new Set([...Object.keys(legitimate), ...Object.keys(alternatives)])];
  const choices = Object.fromEntries(
    names.map((name) => {
      const kept = legitimate[name] === undefined ? [] : [{ weight: 12, arbitrary: fc.constant<string | undefined>(legitimate[name]) }];
      return [
        name,
        fc.oneof(
          ...kept,
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom<string | undefined>(...(alternatives[name] ?? [""]), "") },
        ),
      ];
    }),
  );
  return fc
    .record(choices)
    .map((headers) => Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined)));
}

/**
 * CF-Connecting-IP values: mostly a fresh address (the rate limits key on it), sometimes nonsense, or none (the
 * service's fetch then gives a fresh one, as Cloudflare sets the header on every request).
 */
export const clientIps: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 12, arbitrary: fc.constant("fresh") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, "", "not-an-ip", "999.1.1.1", "::1", "::ffff:127.0.0.1", "fe80::1%eth0", "1.2.3.4, 5.6.7.8"),
  },
);

/** Tables the migrations create, read once. */
let tables: string[] | null = null;

/**
 * Everything the service stores, as one string: every row of every table (D1's own bookkeeping aside) and what waits
 * on each queue. Equal before and after a request means the request stored nothing. A refused draw run's audit entry
 * is left out: the run audits each refusal on purpose (docs/operators.md: The giveaway draw), and writes nothing else.
 */
export async function storeState(service: WaitlistService): Promise<string> {
  tables ??= (
    await service.query<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
    )
  ).map(({ name }) => name);
  const rows = await service.env.DB.batch(
    tables.map((table) =>
      table === "audit_log"
        ? service.env.DB.prepare(`SELECT * FROM audit_log WHERE action <> ?1`).bind(DRAW_RUN_REFUSED_ACTION)
        : service.env.DB.prepare(`SELECT * FROM "${table}"`),
    ),
  );
  return JSON.stringify({ rows: rows.map(({ results }) => results), queued: [service.queued(), service.queued(DEAD_LETTER_QUEUE)] });
}
