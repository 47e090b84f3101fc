/**
 * `npm run deploy` (docs/deploy.md "Deploy to Cloudflare"): refuses before building unless wrangler.jsonc names the real D1
 * database and the site's own custom domain and the Worker has every secret the build needs, because production never runs in demo
 * delivery, without Turnstile or with unsalted IP hashes. Which secrets are needed is worker/src/secrets.ts's rule.
 * It refuses a build that counts referrals at signup (referral-counting.ts), with referrals counted after
 * confirmation a Klaviyo list that is not double opt-in (double-opt-in.ts), and a Klaviyo key that may not delete
 * profiles, so that no erase would leave its person in Klaviyo (data-privacy-scope.ts). It refuses a build whose
 * invitation links lead elsewhere than wrangler.jsonc's PRODUCT_SIGNUP_ORIGIN (product-origin.ts), and shows each
 * change to the settings only developers set, the draw's rules among them, asking before it goes on
 * (developer-settings.ts; `npm run deploy -- --yes` deploys them without asking).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ServiceSettings } from "../../shared/service-settings";
import { SERVICE_SETTINGS_PATH } from "../../shared/service-settings";
import { contentFilePath } from "../../src/content/derive";
import { PROJECT_DIR, runGatsby } from "../lib/gatsby-build";
import { applyMigrations, runWrangler } from "../lib/wrangler";
import { requiredSecrets } from "../../worker/src/secrets";
import { dataPrivacyScopeProblem } from "./data-privacy-scope";
import { doubleOptInProblem } from "./double-opt-in";
import { consoleHostProblem, customDomainsOf } from "./console-host";
import { developerSettingsProblem } from "./developer-settings";
import { productOriginProblem } from "./product-origin";
import { countAfterProblem } from "./referral-counting";

/** wrangler.jsonc's database_id until the one-time setup replaces it. */
const PLACEHOLDER_DATABASE_ID = "00000000-0000-0000-0000-000000000000";

/** wrangler.jsonc's custom-domain route until the one-time setup names the site's own host. */
const PLACEHOLDER_DOMAIN = "www.your-domain.example";

/** A reason not to deploy, written for the operator. */
class Refusal extends Error {}

/** `npm run deploy -- --yes`: deploy changed developer-only settings without asking (developer-settings.ts). */
const YES = process.argv.slice(2).includes("--yes");

/**
 * Refuse wrangler.jsonc's placeholders: the D1 database id, the site's custom domain and the console's host.
 * @returns the site's custom domain (the first route), e.g. "www.pickfund.com", and the file's text
 */
async function checkConfiguration(): Promise<{ domain: string; config: string }> {
  const config = await readFile(path.join(PROJECT_DIR, "wrangler.jsonc"), "utf8");
  if (config.includes(`"database_id": "${PLACEHOLDER_DATABASE_ID}"`))
    throw new Refusal(
      "wrangler.jsonc still has the placeholder D1 database_id. Run `npx wrangler d1 create pickfund-waitlist` once and put the " +
        "database_id it prints into wrangler.jsonc (docs/deploy.md: One-time Cloudflare setup).",
    );
  const domain = customDomainsOf(config)[0];
  if (!domain || domain === PLACEHOLDER_DOMAIN)
    throw new Refusal(
      `wrangler.jsonc's routes must name the site's own host as a custom domain instead of ${PLACEHOLDER_DOMAIN}: the host of ` +
        'content/site.yaml\'s site.url, e.g. { "pattern": "www.pickfund.com", "custom_domain": true } (docs/deploy.md: One-time Cloudflare setup).',
    );
  const consoleProblem = consoleHostProblem(config, domain);
  if (consoleProblem) throw new Refusal(consoleProblem);
  return { domain, config };
}

/** Refuse a build whose links (site.url) point at another host than the one the Worker is served from. */
function checkDomain(domain: string, settings: ServiceSettings): void {
  const host = new URL(settings.siteUrl).host;
  if (host !== domain)
    throw new Refusal(
      `content/site.yaml's site.url is on ${host}, but wrangler.jsonc serves the Worker on ${domain}: every referral and status ` +
        "link would point elsewhere. Make them the same host.",
    );
}

/** The names of the secrets the Worker has. */
async function secretNames(): Promise<Set<string>> {
  let listed: { name: string }[];
  try {
    listed = JSON.parse(await runWrangler(["secret", "list", "--format", "json"])) as { name: string }[];
  } catch (error) {
    throw new Refusal(
      `Could not list the Worker's secrets (is wrangler logged in, and does the Worker exist yet? \`wrangler secret put\` creates it):\n${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  return new Set(listed.map((secret) => secret.name));
}

/**
 * Refuse when the Worker lacks a secret the settings need (before the build: the four every deploy needs; after it,
 * with the build's settings, also the webhook's).
 */
function checkSecrets(names: Set<string>, settings: ServiceSettings | null): void {
  const missing = requiredSecrets(settings).filter((name) => !names.has(name));
  if (missing.length > 0)
    throw new Refusal(
      `The Worker lacks ${missing.join(", ")}; production never runs without them. Set each with:\n` +
        missing.map((name) => `  npx wrangler secret put ${name}`).join("\n"),
    );
}

async function checkBuild(): Promise<ServiceSettings> {
  let settings: ServiceSettings;
  try {
    settings = JSON.parse(await readFile(path.join(PROJECT_DIR, "public", SERVICE_SETTINGS_PATH), "utf8")) as ServiceSettings;
  } catch {
    throw new Refusal(
      `The build wrote no public${SERVICE_SETTINGS_PATH}: set provider.transport to "waitlist-api" in content/site.yaml to deploy the service ` +
        "(a site with another transport deploys to any static host as it is).",
    );
  }
  if (!settings.turnstileSiteKey)
    throw new Refusal(
      "content/site.yaml has no Turnstile site key: production checks every signup with Turnstile, so the page needs its widget.",
    );
  return settings;
}

async function main(): Promise<void> {
  console.log("Checking the Cloudflare configuration…");
  const { domain, config } = await checkConfiguration();
  const secrets = await secretNames();
  checkSecrets(secrets, null);
  console.log("Checking the Klaviyo key's Data Privacy scope…");
  const scope = await dataPrivacyScopeProblem(process.env);
  if (scope) throw new Refusal(scope);
  console.log("Building the site (gatsby build)…");
  const build = await runGatsby(["build"], { log: process.stdout });
  if (build.status !== 0) throw new Refusal(`The build failed (exit ${build.status}); nothing was deployed.`);
  // With referrals counted after confirmation, Klaviyo's webhook needs its secret too (only the build says so).
  const settings = await checkBuild();
  const content = contentFilePath();
  const counting = countAfterProblem(settings, await readFile(content, "utf8"), path.relative(PROJECT_DIR, content));
  if (counting) throw new Refusal(counting);
  checkSecrets(secrets, settings);
  checkDomain(domain, settings);
  const origin = productOriginProblem(config, settings);
  if (origin) throw new Refusal(origin);
  console.log("Comparing the settings only developers set with the live site's…");
  const review = await developerSettingsProblem(settings, {
    yes: YES,
    interactive: Boolean(process.stdin.isTTY),
    input: process.stdin,
    output: process.stdout,
  });
  if (review) throw new Refusal(review);
  console.log("Checking the Klaviyo list's opt-in process…");
  const problem = await doubleOptInProblem(settings, process.env);
  if (problem) throw new Refusal(problem);
  console.log("Applying D1 migrations to the production database…");
  await applyMigrations({ remote: true }, { log: process.stdout });
  console.log("Deploying (wrangler deploy)…");
  await runWrangler(["deploy"], { log: process.stdout });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`\nNot deployed. ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
