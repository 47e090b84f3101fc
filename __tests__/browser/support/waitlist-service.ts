/**
 * The third build as a visitor meets it: the site and the waitlist service on one origin (`wrangler dev`, started
 * by globalSetup), browser contexts that each come from a client address of their own, and the rows the service
 * stored in its local D1.
 */
import type { Browser, BrowserContextOptions } from "playwright-core";
import { d1Query } from "../../../scripts/lib/wrangler";
import { newGuardedContext, type GuardedContext } from "./browser";
import { waitlistSite } from "./run-env";

let clients = 0;

/**
 * A client address no other context of the test run uses (198.18.0.0/15, the range set aside for tests), so that
 * the service's rate limit (per `CF-Connecting-IP`, which wrangler passes through as Cloudflare would set it) counts
 * each test's visitor alone, whatever other test files run beside it.
 */
export function nextClientIp(): string {
  clients += 1;
  const worker = Number(process.env.JEST_WORKER_ID ?? "1");
  return `198.${18 + Math.floor(worker / 256)}.${worker % 256}.${clients % 250}`;
}

/** A guarded context on the waitlist build's origin, its requests from a client address of its own. */
export async function newWaitlistContext(browser: Browser, options: BrowserContextOptions = {}): Promise<GuardedContext> {
  return newGuardedContext(browser, {
    baseURL: waitlistSite().origin,
    ...options,
    extraHTTPHeaders: { "cf-connecting-ip": nextClientIp(), ...options.extraHTTPHeaders },
  });
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
  if (!/^[\w.@+-]+$/.test(email)) throw new Error(`storedSignups() takes a test's own address, not ${JSON.stringify(email)}.`);
  return d1Query<StoredSignup>(
    waitlistSite().stateDir,
    `SELECT email, first_name, last_name, source, properties, delivery_state FROM signups WHERE email = '${email}'`,
  );
}
