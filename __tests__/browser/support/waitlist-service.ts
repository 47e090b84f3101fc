/**
 * The third build as a visitor meets it: the site and the waitlist service on one origin (`wrangler dev`, started in
 * each worker as `npm start` starts it: worker-service.ts), browser contexts that each come from a client address of
 * their own, the rows the service stored in its local D1, and the links its demo delivery logs in place of the
 * welcome e-mail.
 */
import { readFile } from "node:fs/promises";
import { expect } from "@playwright/test";
import { d1Query, logLines } from "../../../scripts/lib/wrangler";
import { waitlistSite } from "./run-env";

/** How long demo delivery may take to settle a signup and log its links (ms): the local queue's next batch. */
const DEMO_DELIVERY_TIMEOUT_MS = 30_000;

let clients = 0;

/**
 * A client address no other context of the test run uses (198.18.0.0/15, the range set aside for tests), so that
 * the service's rate limit (per `CF-Connecting-IP`, which wrangler passes through as Cloudflare would set it) counts
 * each test's visitor alone, whatever other test files run beside it.
 */
export function nextClientIp(): string {
  clients += 1;
  // Playwright numbers its worker processes from 0, a new number for each one it starts.
  const worker = Number(process.env.TEST_WORKER_INDEX ?? "0") + 1;
  return `198.${18 + Math.floor(worker / 256)}.${worker % 256}.${clients % 250}`;
}

/** A row of the service's `signups` table, as the tests read it. */
export interface StoredSignup {
  email: string;
  first_name: string;
  last_name: string;
  source: string | null;
  /** JSON text of the profile properties. */
  properties: string;
  delivery_state: string;
}

/**
 * The rows the service stored for an address.
 * @param email a test visitor's address (uniqueVisitor: letters, digits, `-`, `@`, `.` only)
 * @throws Error when the address has any other character: it is written into the SQL text as a literal
 */
export async function storedSignups(email: string): Promise<StoredSignup[]> {
  assertTestAddress(email);
  return d1Query<StoredSignup>(
    waitlistSite().stateDir,
    `SELECT email, first_name, last_name, source, properties, delivery_state FROM signups WHERE email = '${email}'`,
  );
}

/** @throws Error for anything but a test visitor's address (uniqueVisitor), which is written into SQL as a literal */
function assertTestAddress(email: string): void {
  if (!/^[\w.@+-]+$/.test(email))
    throw new Error(`The waitlist service's helpers take a test's own address, not ${JSON.stringify(email)}.`);
}

/** The links a newcomer's welcome e-mail carries, as the local run's demo delivery logs them. */
export interface DemoLinks {
  /** `<origin>/status/#t=<token>` */
  statusUrl: string;
  /** `<origin>/?ref=<code>` */
  referralUrl: string;
}

/**
 * A newcomer's links from wrangler's output, as a newcomer trying `npm start` reads them: the `demo_status_link` line
 * demo delivery writes for their signup (worker/src/delivery/demo.ts), waited for until the local queue delivered it.
 * @param email a test visitor's address that signed up as a newcomer
 * @throws Error when no row holds the address, or no line names its id within DEMO_DELIVERY_TIMEOUT_MS
 */
export async function demoLinksOf(email: string): Promise<DemoLinks> {
  const { stateDir, outputFile } = waitlistSite();
  return demoLinksIn(email, stateDir, () => readFile(outputFile, "utf8"));
}

/**
 * demoLinksOf for a `wrangler dev` of a test's own: its state directory and its output so far.
 * @throws Error as demoLinksOf
 */
export async function demoLinksIn(email: string, stateDir: string, output: () => string | Promise<string>): Promise<DemoLinks> {
  assertTestAddress(email);
  const [row] = await d1Query<{ id: string }>(stateDir, `SELECT id FROM signups WHERE email = '${email}'`);
  if (!row) throw new Error(`The waitlist service stored no signup for ${email}.`);
  await expect
    .poll(async () => linksIn(await output(), row.id), {
      message: `a demo_status_link line for the signup ${row.id} (${email}) in wrangler's output`,
      timeout: DEMO_DELIVERY_TIMEOUT_MS,
    })
    .not.toBeNull();
  // The output only grows: the line the poll found is still there.
  const links = linksIn(await output(), row.id);
  if (!links) throw new Error(`wrangler's output lost the demo_status_link line of ${email}.`);
  return links;
}

/** The links of the first `demo_status_link` line for a signup id in wrangler's output, or null when there is none yet. */
function linksIn(output: string, id: string): DemoLinks | null {
  const event = logLines<{ id?: unknown; statusUrl?: unknown; referralUrl?: unknown }>(output, "demo_status_link").find(
    (line) => line.id === id && typeof line.statusUrl === "string" && typeof line.referralUrl === "string",
  );
  return event ? { statusUrl: event.statusUrl as string, referralUrl: event.referralUrl as string } : null;
}
