/**
 * `npm run deploy`'s review of the settings only developers set (the content schema's developer-only fields:
 * src/content/json-schema.ts, developerOnlyFields): the product's sign-up page, the drand chain and relay, and the
 * draw's rules. The deployed build's values are read from the live site's service-settings.json, every change is
 * shown, and the deploy goes on only once someone at the terminal answers y, or with --yes. A module of its own so
 * that a test runs it against a stand-in for the live site without deploying.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { SERVICE_SETTINGS_PATH, type ServiceSettings } from "../../shared/service-settings";
import { developerOnlyFields } from "../../src/content/json-schema";

/** How long the live site may take to answer (ms). */
const DEPLOYED_SETTINGS_TIMEOUT_MS = 15_000;

/** One setting whose value differs between the live site's build and this one; values as JSON, undefined for none. */
export interface SettingChange {
  /** Its path in the content file and in service-settings.json, e.g. "draw.winners". */
  field: string;
  deployed: string | undefined;
  built: string | undefined;
}

/** The value at a dotted path of a settings file, undefined when there is none. */
function valueAt(settings: unknown, field: string): unknown {
  let value = settings;
  for (const key of field.split("."))
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** A section's settings one by one ("draw.chain" → "draw.chain.hash", …), so a change names the one that moved. */
function leaves(field: string, ...values: unknown[]): string[] {
  const keys = new Set(
    values.flatMap((value) => (value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [])),
  );
  if (keys.size === 0) return [field];
  return [...keys].flatMap((key) => leaves(`${field}.${key}`, ...values.map((value) => valueAt(value, key))));
}

/**
 * The developer-only settings that differ, in the schema's order.
 * @param deployed the live site's service-settings.json; null when it publishes none (every value is then a change)
 * @param fields the dotted paths to compare (default: the schema's developer-only fields)
 */
export function settingChanges(deployed: unknown, built: ServiceSettings, fields = developerOnlyFields()): SettingChange[] {
  return fields
    .flatMap((field) => leaves(field, valueAt(deployed, field), valueAt(built, field)))
    .flatMap((field) => {
      const [before, after] = [valueAt(deployed, field), valueAt(built, field)].map((value) =>
        value === undefined ? undefined : JSON.stringify(value),
      );
      return before === after ? [] : [{ field, deployed: before, built: after }];
    });
}

/** What the live site publishes: its settings, none (404: the service was never deployed there), or why it could not be read. */
export type DeployedSettings = { kind: "found"; settings: unknown } | { kind: "none" } | { kind: "unreadable"; reason: string };

/**
 * The live build's service-settings.json, from the site's own address.
 * @param siteUrl the build's siteUrl (the host `npm run deploy` has checked is the Worker's), e.g. https://www.pickfund.com
 * @returns never throws
 */
export async function deployedSettings(siteUrl: string, fetcher: typeof fetch = fetch): Promise<DeployedSettings> {
  try {
    const response = await fetcher(`${siteUrl}${SERVICE_SETTINGS_PATH}`, {
      headers: { accept: "application/json", "cache-control": "no-cache" },
      signal: AbortSignal.timeout(DEPLOYED_SETTINGS_TIMEOUT_MS),
    });
    if (response.status === 404) return { kind: "none" };
    if (!response.ok) return { kind: "unreadable", reason: `it answered ${response.status}` };
    return { kind: "found", settings: await response.json() };
  } catch (error) {
    return { kind: "unreadable", reason: error instanceof Error ? error.message : String(error) };
  }
}

/** How the review talks to whoever deploys. */
export interface ReviewOptions {
  /** --yes: deploy the changes without asking (for a script or CI, after reviewing them elsewhere). */
  yes: boolean;
  /** Whether a person is at the terminal (stdin is a TTY); without one and without --yes, a change is refused. */
  interactive: boolean;
  input: Readable;
  output: Writable;
  fetcher?: typeof fetch;
}

/** A value as the review prints it. */
const shown = (value: string | undefined) => value ?? "(none)";

/**
 * Show what this deploy changes of the developer-only settings, and ask before it goes on.
 * @param built the build's service-settings.json
 * @returns null to deploy (nothing changed, --yes, or the answer y); else the refusal, for the operator
 */
export async function developerSettingsProblem(built: ServiceSettings, options: ReviewOptions): Promise<string | null> {
  const url = `${built.siteUrl}${SERVICE_SETTINGS_PATH}`;
  const live = await deployedSettings(built.siteUrl, options.fetcher);
  const changes = settingChanges(live.kind === "found" ? live.settings : null, built);
  const say = (text: string) => options.output.write(`${text}\n`);
  if (changes.length === 0) {
    say(`The settings only developers set (the draw's rules, the drand chain and relay, the product's sign-up page) are as on ${url}.`);
    return null;
  }
  say(
    live.kind === "found"
      ? `This deploy changes settings only developers set, compared with ${url}:`
      : live.kind === "none"
        ? `${url} publishes no settings yet (the service's first deploy there); this deploy sets:`
        : `Could not read ${url} (${live.reason}) to compare; this deploy sets:`,
  );
  for (const change of changes) say(`  ${change.field}: ${shown(change.deployed)} → ${shown(change.built)}`);
  say("The draw's rules, its drand chain and relay decide who wins; the product's sign-up page is where invitation codes go.");
  if (options.yes) {
    say("Deploying them (--yes).");
    return null;
  }
  if (!options.interactive)
    return "These settings change, and nobody is at the terminal to confirm them. Review them above, then run `npm run deploy -- --yes`.";
  options.output.write("Deploy these changes? [y/N] ");
  const prompt = createInterface({ input: options.input, terminal: false });
  // The first line answers; an input that ends before one (Ctrl-D) is a no, where question() would wait for ever.
  const answer = await new Promise<string>((resolve) => {
    prompt.once("line", resolve);
    prompt.once("close", () => resolve(""));
  });
  prompt.close();
  return /^\s*y(es)?\s*$/i.test(answer) ? null : "The changed settings were not confirmed.";
}
