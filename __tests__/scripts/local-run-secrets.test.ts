/**
 * `npm start` with every Worker secret set in the shell: the service started as scripts/service/start.ts starts it
 * (wrangler dev's `--var` list from localRunVars), and each secret seen taking effect through a request, the
 * check-in of docs/operators.md among them, beside loopback stand-ins for Klaviyo and Turnstile.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import {
  applyMigrations,
  d1Query,
  localWorkerVars,
  logLinesOnceThere,
  PROJECT_DIR,
  startWranglerDev,
  type WranglerDev,
} from "../../scripts/lib/wrangler";
import { localRunVars, unsetReport } from "../../scripts/service/environment";
import { CONFIRMATION_WEBHOOK_PATH } from "../../shared/api/hooks";
import { TURNSTILE_SIGNUP_ACTION } from "../../shared/contract";
import { CHECK_IN_ENDPOINT } from "../../shared/launch";
import type { SecretName } from "../../worker/src/secrets";
import { hashIp } from "../../worker/src/ip-hash";
import { startSiteverifyStandIn, type SiteverifyStandIn } from "../service/support/siteverify-stand-in";
import { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS } from "../service/support/turnstile-test-keys";
import { runWaitlistCli } from "./support/waitlist-cli";

/** The service tests' build: a service-settings.json and nothing else. */
const ASSETS_DIR = path.join(PROJECT_DIR, "__tests__", "service", "fixtures", "public");
/** The links' origin the shell sets: not the served one, so that the links show it was taken. */
const SITE_ORIGIN = "http://links.localhost:8787";
/** The person who signs up, is invited and checks in. */
const PERSON = { email: "secrets.person@example.com", firstName: "Ada", lastName: "Lee" };
/** Their address, as the Worker sees it. */
const CLIENT_IP = "198.51.100.7";
/** How long the local queue may take to hand a message to the Klaviyo stand-in (ms of wall time). */
const DELIVERY_TIMEOUT_MS = 60_000;

/** A secret as `openssl rand -hex 32` makes one. */
const randomSecret = () => randomBytes(32).toString("hex");

let directory: string;
let klaviyo: KlaviyoStandIn;
let siteverify: SiteverifyStandIn;
/** Every secret of worker/src/secrets.ts: keyed by SecretName, so a new secret fails the type check until it is here. */
let secrets: Record<SecretName, string>;
let vars: Record<string, string>;
let service: WranglerDev;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "local-run-secrets-"));
  [klaviyo, siteverify] = await Promise.all([
    startKlaviyoStandIn(),
    startSiteverifyStandIn({ hostname: new URL(SITE_ORIGIN).hostname, action: TURNSTILE_SIGNUP_ACTION }),
  ]);
  secrets = {
    KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey,
    TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes,
    IP_HASH_SALT: randomSecret(),
    INVITATION_TOKEN_KEY: randomSecret(),
    AUDIT_SIGNING_KEY: randomSecret(),
    KLAVIYO_WEBHOOK_SECRET: randomSecret(),
    KLAVIYO_WEBHOOK_SECRET_PREVIOUS: randomSecret(),
    LAUNCH_CHECKIN_SECRET: randomSecret(),
  };
  // The shell of `LAUNCH_CHECKIN_SECRET=… npm start`: every secret, the stand-ins' addresses, the links' origin, and
  // the local operator's role, whatever a developer's .dev.vars says.
  const shell = {
    ...secrets,
    KLAVIYO_API_URL: klaviyo.apiUrl,
    TURNSTILE_VERIFY_URL: siteverify.verifyUrl,
    SITE_ORIGIN,
    CONSOLE_LOCAL_ROLE: "operator",
  };
  // No .dev.vars of the test's own: the shell alone decides, as in `LAUNCH_CHECKIN_SECRET=… npm start` without one.
  vars = localRunVars(shell, {});
  const stateDir = path.join(directory, "state");
  await applyMigrations(stateDir);
  service = await startWranglerDev({ assetsDir: ASSETS_DIR, persistTo: stateDir, vars });
  const signup = await fetch(`${service.origin}/api/signups`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": CLIENT_IP },
    body: JSON.stringify({ ...PERSON, turnstileToken: TURNSTILE_DUMMY_TOKEN }),
  });
  expect(signup.status).toBe(202);
  await logLinesOnceThere(service, "delivery_delivered", 1, DELIVERY_TIMEOUT_MS);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await Promise.all([klaviyo?.close(), siteverify?.close()]);
  if (directory) await rm(directory, { recursive: true, force: true });
});

it("passes every secret on, so the start-up output names none of them unset", () => {
  for (const [name, value] of Object.entries(secrets)) expect(vars[name]).toBe(value);
  const report = unsetReport(vars).join("\n");
  for (const name of Object.keys(secrets)) expect(report).not.toContain(name);
});

it("reads what wrangler dev reads before the shell's: wrangler's vars with .dev.vars over them", async () => {
  const project = path.join(directory, "project");
  await mkdir(project);
  const configPath = path.join(project, "wrangler.json");
  await writeFile(
    configPath,
    JSON.stringify({ name: "vars", vars: { KLAVIYO_API_URL: "https://a.klaviyo.com", LIMITS: { perHour: 20 } } }),
  );
  await writeFile(path.join(project, ".dev.vars"), "KLAVIYO_API_URL=http://127.0.0.1:9/\nLAUNCH_CHECKIN_SECRET=from-dev-vars\n");
  const devVars = await localWorkerVars(configPath);
  expect(devVars).toEqual({ KLAVIYO_API_URL: "http://127.0.0.1:9/", LIMITS: '{"perHour":20}', LAUNCH_CHECKIN_SECRET: "from-dev-vars" });
  expect(unsetReport(devVars).join("\n")).not.toContain("LAUNCH_CHECKIN_SECRET");
});

it("LAUNCH_CHECKIN_SECRET: the check-in of docs/operators.md accepts the invitation, once", async () => {
  const invited = await runWaitlistCli(["invite", PERSON.email, "--reason", "Check-in try", "--origin", service.consoleOrigin]);
  expect(invited.output).toContain(`Invited ${PERSON.email}`);
  expect(invited.code).toBe(0);
  await logLinesOnceThere(service, "invitation_sent", 1, DELIVERY_TIMEOUT_MS);
  const [event] = klaviyo.events.filter(({ email }) => email === PERSON.email);
  const token = new URL(String((event.properties as { invite_url: string }).invite_url)).searchParams.get("invite");
  // The curl of docs/operators.md: the secret as a Bearer token, the invite parameter as JSON.
  const checkIn = (secret: string) =>
    fetch(`${service.origin}${CHECK_IN_ENDPOINT}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });

  expect((await checkIn(randomSecret())).status).toBe(401);
  const accepted = await checkIn(secrets.LAUNCH_CHECKIN_SECRET);
  expect(accepted.status).toBe(200);
  expect(await accepted.json()).toEqual({ ...PERSON, place: 1 });
  expect((await checkIn(secrets.LAUNCH_CHECKIN_SECRET)).status).toBe(409);
});

it("KLAVIYO_WEBHOOK_SECRET and KLAVIYO_WEBHOOK_SECRET_PREVIOUS: the webhook takes either, and no other", async () => {
  const confirmed = (secret: string) =>
    fetch(`${service.origin}${CONFIRMATION_WEBHOOK_PATH}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody.on.the.list@example.com" }),
    });
  for (const secret of [secrets.KLAVIYO_WEBHOOK_SECRET, secrets.KLAVIYO_WEBHOOK_SECRET_PREVIOUS]) {
    const answer = await confirmed(secret);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ matched: false });
  }
  expect((await confirmed(randomSecret())).status).toBe(401);
});

it("KLAVIYO_PRIVATE_API_KEY and TURNSTILE_SECRET_KEY: the signup was checked with the secret and delivered with the key", () => {
  expect(siteverify.calls).toEqual([expect.objectContaining({ secret: secrets.TURNSTILE_SECRET_KEY, response: TURNSTILE_DUMMY_TOKEN })]);
  // The stand-in takes only its own key: a profile there is the key's doing.
  const [profile] = klaviyo.profileImports.filter(({ email }) => email === PERSON.email);
  expect(String(profile.properties?.waitlist_status_url)).toMatch(new RegExp(`^${SITE_ORIGIN}/status/#t=`));
  expect(service.output()).not.toContain('"event":"delivery_demo"');
});

it("IP_HASH_SALT: the stored network hash is salted with it", async () => {
  const [row] = await d1Query<{ ip_hash: string }>(
    path.join(directory, "state"),
    `SELECT ip_hash FROM signups WHERE email = '${PERSON.email}'`,
  );
  expect(row.ip_hash).toBe(await hashIp(CLIENT_IP, secrets.IP_HASH_SALT));
  expect(row.ip_hash).not.toBe(await hashIp(CLIENT_IP, undefined));
});
