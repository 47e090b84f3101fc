/**
 * The web editor's form (/admin/config.yml) is the content schema: the same fields,
 * each with its hint, required flag and pattern message, so the two cannot drift
 * apart. And the editor's YAML format keeps the file as editors and the build know it.
 * @jest-environment node
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as YAML from "yaml";
import { contentFormat, stringifyContent, type KeyOrder } from "../../src/build/admin-page/content-format.js";
import { adminIndexHtml, keyOrderModule } from "../../src/build/admin-page";
import {
  cmsConfig,
  cmsConfigYaml,
  cmsOptionsFromEnv,
  CONTENT_FORMAT,
  keyOrder,
  labelFor,
  LOCAL_BACKEND_URL,
  type DecapField,
  type JsonSchema,
} from "../../src/content/cms-config";
import { contentJsonSchema, developerOnlyFields } from "../../src/content/json-schema";
import { loadContentFile } from "../../src/content/load";
import { siteContentSchema } from "../../src/content/schema";

const ROOT = path.join(__dirname, "..", "..");
const SITE_FILE = path.join(ROOT, "content", "site.yaml");
const schema = contentJsonSchema() as JsonSchema;
const PRODUCTION = cmsOptionsFromEnv({});

/** The one file entry of the generated config (what the form shows for content/site.yaml). */
function siteEntry(config = cmsConfig(PRODUCTION)) {
  const [collection] = config.collections as { format: string; files: { file: string; fields: DecapField[] }[] }[];
  return { format: collection.format, ...collection.files[0] };
}

/** Every field path of the form, e.g. "home.form.email.label" (list items as "[]"). */
function formPaths(fields: DecapField[], at = ""): string[] {
  return fields.flatMap((field) => {
    const here = at ? `${at}.${field.name}` : field.name;
    if (field.fields) return [here, ...formPaths(field.fields, here)];
    return [here];
  });
}

/** Every property path of the content model, read from the zod schema itself. */
function zodPaths(shape: Record<string, unknown>, at = ""): string[] {
  return Object.entries(shape).flatMap(([key, child]) => {
    const here = at ? `${at}.${key}` : key;
    let inner = child as { def: { type: string; innerType?: unknown; in?: unknown; shape?: Record<string, unknown> } };
    while (inner.def.innerType || (inner.def.type === "pipe" && inner.def.in))
      inner = (inner.def.innerType ?? inner.def.in) as typeof inner;
    const nested = (inner as unknown as { shape?: Record<string, unknown> }).shape;
    return nested && inner.def.type === "object" ? [here, ...zodPaths(nested, here)] : [here];
  });
}

/** The production form's fields, generated once: the lookups below run for every one of its fields. */
const PRODUCTION_FIELDS = siteEntry().fields;

/** The form field at a dotted path. */
function fieldAt(dotted: string): DecapField {
  let fields = PRODUCTION_FIELDS;
  let found: DecapField | undefined;
  for (const name of dotted.split(".")) {
    found = fields.find((field) => field.name === name);
    if (!found) throw new Error(`No form field ${dotted}`);
    fields = found.fields ?? [];
  }
  return found as DecapField;
}

/** The JSON Schema property at a dotted path, without its null variant. */
function schemaAt(dotted: string): JsonSchema {
  let current: JsonSchema = schema;
  for (const name of dotted.split(".")) current = current.properties?.[name] as JsonSchema;
  // Only a nullable field's anyOf ([T, null]) is unwrapped; provider's anyOf states "key and list id, or demo mode".
  if (!current.anyOf?.some((candidate) => candidate.type === "null")) return current;
  const variant = current.anyOf.find((candidate) => candidate.type !== "null");
  if (!variant) return current;
  return { ...variant, ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== "anyOf")) };
}

/** The form's field paths as /admin/config.yml writes them, the file Decap reads. */
const writtenFormPaths = () => formPaths(siteEntry(YAML.parse(cmsConfigYaml(PRODUCTION)) as Record<string, unknown>).fields);

/** Whether a dotted path is a developer-only field or inside one. */
const isDevelopers = (dotted: string) => developerOnlyFields().some((field) => dotted === field || dotted.startsWith(`${field}.`));

describe("/admin/config.yml", () => {
  it("has exactly the content schema's fields, in its order, but the ones only developers set", () => {
    expect(formPaths(siteEntry().fields)).toEqual(zodPaths(siteContentSchema.shape).filter((dotted) => !isDevelopers(dotted)));
    expect(siteEntry().file).toBe("content/site.yaml");
  });

  it("the web editor cannot change the invitation link's origin", () => {
    const paths = writtenFormPaths();
    expect(paths).toEqual(expect.arrayContaining(["launch.moment", "launch.invitationDays"]));
    expect(paths).not.toContain("launch.productSignupUrl");
  });

  it("the web editor cannot change the drand chain and relay", () => {
    const paths = writtenFormPaths();
    expect(paths).toEqual(expect.arrayContaining(["draw.heading", "draw.chainLabel"]));
    for (const dotted of [
      "draw.chain",
      "draw.chain.hash",
      "draw.chain.publicKey",
      "draw.chain.period",
      "draw.chain.genesis",
      "draw.relayUrl",
    ])
      expect(paths).not.toContain(dotted);
  });

  it("the web editor cannot change the draw's rules", () => {
    const paths = writtenFormPaths();
    expect(paths).toContain("draw.rulesFixed");
    for (const dotted of ["draw.id", "draw.cutoff", "draw.winners", "draw.roundDelayHours"]) expect(paths).not.toContain(dotted);
  });

  it("takes the fields it leaves out from the schema, and nowhere else", () => {
    expect(developerOnlyFields()).toEqual([
      "launch.productSignupUrl",
      "draw.chain",
      "draw.id",
      "draw.cutoff",
      "draw.winners",
      "draw.roundDelayHours",
      "draw.relayUrl",
    ]);
    expect(schemaAt("draw.relayUrl")["x-developer-only"]).toBe(true);
  });

  it("gives every field a label, the schema's description as its hint, and the schema's required flag", () => {
    for (const dotted of formPaths(siteEntry().fields)) {
      const field = fieldAt(dotted);
      const parent = dotted.includes(".") ? schemaAt(dotted.slice(0, dotted.lastIndexOf("."))) : schema;
      const own = parent.properties?.[field.name] as JsonSchema;
      expect([dotted, field.label]).toEqual([dotted, expect.stringMatching(/^[A-Z]/)]);
      expect([dotted, field.hint]).toEqual([dotted, own.description]);
      expect([dotted, field.required]).toEqual([dotted, (parent.required ?? []).includes(field.name)]);
    }
  });

  it("refuses what the schema's patterns refuse, with the schema's plain-English message", () => {
    const patterned = formPaths(siteEntry().fields).filter((dotted) => schemaAt(dotted).pattern);
    expect(patterned.length).toBeGreaterThan(60);
    for (const dotted of patterned) {
      const { pattern, patternErrorMessage } = schemaAt(dotted);
      expect([dotted, fieldAt(dotted).pattern]).toEqual([dotted, [pattern, patternErrorMessage]]);
      expect(patternErrorMessage).not.toMatch(/\^|\\[dsS]|\[/);
    }
    expect(fieldAt("provider.publicApiKey").pattern?.[1]).toMatch(/Never a private key \(pk_…\)/);
    expect(fieldAt("provider.turnstileSiteKey")).toMatchObject({ widget: "string", required: false });
    expect(new RegExp(fieldAt("provider.turnstileSiteKey").pattern?.[0] as string).test("1x00000000000000000000AA")).toBe(true);
    expect(new RegExp(fieldAt("provider.turnstileSiteKey").pattern?.[0] as string).test("1x0000000000000000000000000000000AA")).toBe(false);
    expect(new RegExp(fieldAt("home.title").pattern?.[0] as string).test("   ")).toBe(false);
  });

  it("uses a yes/no switch for demoMode, a drop-down for the transport, a list of texts for the odds, and text areas for long copy only", () => {
    expect(fieldAt("provider.demoMode")).toMatchObject({ widget: "boolean", default: false, required: false });
    expect(fieldAt("provider.transport")).toMatchObject({
      widget: "select",
      options: ["waitlist-api", "client-api", "legacy-form"],
      default: "client-api",
      required: false,
    });
    expect(fieldAt("decorations.odds")).toMatchObject({ widget: "list", min: 1, max: 12, field: { widget: "string", required: true } });
    expect(fieldAt("home.privacyNote").widget).toBe("text");
    expect(fieldAt("site.metaDescription").widget).toBe("text");
    expect(fieldAt("home.title").widget).toBe("string");
    expect(fieldAt("adPixel.id")).toMatchObject({ widget: "string", required: false });
  });

  it("uses a switch for the referral program, whole-number boxes with their range, drop-downs for fixed words, text areas for long copy", () => {
    expect(fieldAt("referrals.enabled")).toMatchObject({ widget: "boolean", default: false, required: false });
    expect(fieldAt("referrals.placesPerReferral")).toMatchObject({ widget: "number", value_type: "int", min: 1, required: true });
    expect(fieldAt("referrals.placesPerReferral").max).toBeUndefined();
    expect(fieldAt("leaderboard.size")).toMatchObject({ widget: "number", value_type: "int", min: 1, max: 100 });
    expect(fieldAt("referrals.countAfter")).toMatchObject({ widget: "select", options: ["confirmation", "signup"], required: true });
    expect(fieldAt("provider.transport").widget).toBe("select");
    expect(fieldAt("provider.transport").options).toEqual(expect.arrayContaining(["client-api", "legacy-form"]));
    expect(fieldAt("referrals.checkInbox.text").widget).toBe("text");
    expect(fieldAt("referrals.shareMessage").pattern?.[1]).toMatch(/^Keep \{link\} in this text/);
  });

  it("labels fields in words, capitalising acronyms", () => {
    expect(labelFor("publicApiKey")).toBe("Public API key");
    expect(labelFor("discordInviteUrl")).toBe("Discord invite URL");
    expect(labelFor("title")).toBe("Title");
  });

  it("saves through our content format, with no local backend in production and the local one for npm run cms", () => {
    const production = YAML.parse(cmsConfigYaml(PRODUCTION)) as Record<string, unknown>;
    expect(production.local_backend).toBeUndefined();
    expect(production.backend).toEqual({ name: "git-gateway", branch: "main" });
    expect(production.publish_mode).toBeUndefined();
    expect(siteEntry(production).format).toBe(CONTENT_FORMAT);
    expect(keyOrderModule()).toContain(`CONTENT_FORMAT = "${CONTENT_FORMAT}"`);
    const local = YAML.parse(cmsConfigYaml({ ...PRODUCTION, localBackendUrl: LOCAL_BACKEND_URL })) as Record<string, unknown>;
    expect(local.local_backend).toEqual({ url: "http://127.0.0.1:8081/api/v1" });
  });

  it("can use the GitHub backend with an OAuth client, and the editorial workflow", () => {
    const options = cmsOptionsFromEnv({
      CMS_GITHUB_REPO: "pickfund/waitlist",
      CMS_AUTH_BASE_URL: "https://auth.pickfund.example",
      CMS_EDITORIAL_WORKFLOW: "true",
      CMS_BRANCH: "live",
    });
    expect(cmsConfig(options)).toMatchObject({
      backend: { name: "github", repo: "pickfund/waitlist", branch: "live", base_url: "https://auth.pickfund.example" },
      publish_mode: "editorial_workflow",
    });
    expect(() => cmsOptionsFromEnv({ CMS_GITHUB_REPO: "not a repo" })).toThrow(/owner\/name/);
  });

  it("loads Decap, our format and nothing inline (the /admin/ CSP allows no inline script)", () => {
    const html = adminIndexHtml();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      '<script src="/admin/manual-init.js">',
      '<script src="/admin/decap-cms.js">',
      '<script type="module" src="/admin/editor.js">',
    ]);
  });
});

describe("the editor's YAML format", () => {
  const order = keyOrder(schema);
  const format = contentFormat(YAML, order);
  const siteText = readFileSync(SITE_FILE, "utf8");

  it("writes content/site.yaml back exactly as it is, so a save changes only the edited lines", () => {
    expect(format.toFile(format.fromFile(siteText))).toBe(siteText);
  });

  it("keeps the settings only developers set through a save of a form that does not show them", () => {
    // Decap hands our format the file's values with the form's changes: keys the form lacks come as they were read.
    const data = format.fromFile(siteText) as { draw: Record<string, unknown>; launch: Record<string, unknown> };
    const { chain, relayUrl, ...drawShown } = data.draw;
    const saved = format.toFile({ ...data, draw: { ...drawShown, heading: "The draw", chain, relayUrl } });
    expect(saved).toBe(siteText.replace("\n  heading: The giveaway draw\n", "\n  heading: The draw\n"));
  });

  it("writes keys in the schema's order whatever order they arrive in (Decap scrambles sections of more than 8 fields)", () => {
    const data = format.fromFile(siteText) as Record<string, Record<string, unknown>>;
    const scrambled = Object.fromEntries(
      Object.entries(data)
        .reverse()
        .map(([key, value]) => [
          key,
          value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
        ]),
    );
    expect(stringifyContent(YAML, scrambled, order)).toBe(siteText);
  });

  it("keeps a UTC launch moment as text through a save and a reload (Decap's own YAML reads …Z as a date)", () => {
    const data = format.fromFile(siteText) as { launch: { moment: unknown } };
    data.launch.moment = "2030-06-01T19:00:00Z";
    const saved = format.toFile(data);
    expect((format.fromFile(saved) as { launch: { moment: unknown } }).launch.moment).toBe("2030-06-01T19:00:00Z");
    const result = loadContentFile("saved.yaml", saved);
    expect(result.ok && result.content.launch.moment).toBe("2030-06-01T19:00:00Z");
  });

  it("writes long text on one line and a blank line between sections", () => {
    const data = format.fromFile(siteText) as { home: { privacyNote: string } };
    data.home.privacyNote = "word ".repeat(40).trim();
    const saved = format.toFile(data);
    expect(saved).toContain(`  privacyNote: ${"word ".repeat(40).trim()}\n`);
    expect(saved).toMatch(/\n\nlaunch:\n/);
  });
});

describe("the campaign pages in the web editor", () => {
  const campaigns = (cmsConfig(PRODUCTION).collections as Record<string, unknown>[]).find(
    (collection) => collection.name === "campaigns",
  ) as {
    folder: string;
    extension: string;
    create: boolean;
    format: string;
    identifier_field: string;
    slug: string;
    fields: DecapField[];
  };

  it("are a folder collection of content/campaigns/*.yaml that editors can add to, in our YAML format", () => {
    expect(campaigns).toMatchObject({
      folder: "content/campaigns",
      extension: "yaml",
      create: true,
      format: CONTENT_FORMAT,
      slug: "{{slug}}",
    });
    expect(cmsConfigYaml(PRODUCTION)).toContain("folder: content/campaigns");
  });

  it("have the campaign file's form: campaign.source the one required field, no site-wide section, listed by their source", () => {
    const paths = formPaths(campaigns.fields);
    expect(paths).toEqual(expect.arrayContaining(["campaign.source", "campaign.metaDescription", "home.title", "decorations.odds"]));
    for (const siteWide of ["site", "launch", "provider", "adPixel", "success", "notFound", "links.discordInviteUrl"])
      expect(paths).not.toContain(siteWide);
    const required = (fields: DecapField[], at = ""): string[] =>
      fields.flatMap((field) => {
        const here = at ? `${at}.${field.name}` : field.name;
        return [...(field.required ? [here] : []), ...(field.fields ? required(field.fields, here) : [])];
      });
    expect(required(campaigns.fields)).toEqual(["campaign", "campaign.source"]);
    expect(paths).toContain(campaigns.identifier_field);
  });

  it("are written with their campaign section first, then the site file's order", () => {
    const text = stringifyContent(
      YAML,
      { home: { title: "NBA" }, campaign: { metaDescription: "d", source: "nba-ads" } },
      JSON.parse(/KEY_ORDER = (.*);/.exec(keyOrderModule())?.[1] ?? "{}") as KeyOrder,
    );
    expect(text.indexOf("campaign:")).toBeLessThan(text.indexOf("home:"));
    expect(text.indexOf("source:")).toBeLessThan(text.indexOf("metaDescription:"));
  });
});
