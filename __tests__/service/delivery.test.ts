/**
 * Delivery to Klaviyo, against the Worker in workerd (`wrangler dev`: the route, the queue, its consumer, the
 * dead-letter queue's consumer and the cron sweep) and a loopback Klaviyo stand-in that holds every request to
 * Klaviyo's OpenAPI description: a signup reaches Klaviyo as documented, an outage and throttling lose nothing, a
 * refused address is marked and dead-lettered, a lost message is swept up, and without a key nothing is sent.
 */
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import { startServiceInMiniflare, type ServiceInMiniflare } from "./support/service-in-miniflare";
import { postSignup, startWaitlistService, TEST_SETTINGS, type WaitlistService } from "./support/waitlist-service";

/**
 * How long a test waits for a delivery to settle (ms): the queue's batch wait, and retries after 5 and 10 s of
 * backoff, on a machine shared with other test runs. A bound on the wait, not a speed target.
 */
const SETTLE_DEADLINE_MS = 60_000;

/** Pause between reads while waiting (ms). */
const POLL_MS = 200;

/** A row's delivery columns. */
interface DeliveryColumns {
  id: string;
  delivery_state: string;
  delivery_attempts: number;
  delivery_error: string | null;
  delivered_at: string | null;
}

/** A running Worker whose D1 and log a test reads: `wrangler dev` or Miniflare. */
type Runtime = Pick<WaitlistService, "query" | "output">;

/** One JSON log line of the Worker. */
interface LogLine {
  event: string;
  [field: string]: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Read until `done` holds or the deadline passes.
 * @returns the last value read
 * @throws Error naming `what` and the last value when the deadline passes
 */
async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  what: string,
  deadlineMs = SETTLE_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Waited ${deadlineMs} ms for ${what}; last seen: ${JSON.stringify(value)}`);
    await sleep(POLL_MS);
  }
}

let addressNumber = 0;
/** An address no other test uses. */
function newAddress(label: string): string {
  addressNumber += 1;
  return `${label}.${Date.now()}.${addressNumber}@example.com`;
}

/** Sign up through POST /api/signups as the page does; the new row's id. */
async function signUp(service: WaitlistService, body: Record<string, unknown>): Promise<string> {
  const response = await postSignup(service, body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function deliveryOf(service: Runtime, id: string): Promise<DeliveryColumns> {
  const [row] = await service.query<DeliveryColumns>(
    "SELECT id, delivery_state, delivery_attempts, delivery_error, delivered_at FROM signups WHERE id = ?1",
    id,
  );
  return row;
}

/** Wait until the row is no longer `pending`. */
function settled(service: Runtime, id: string): Promise<DeliveryColumns> {
  return until(
    () => deliveryOf(service, id),
    (row) => row.delivery_state !== "pending",
    `signup ${id} to settle`,
  );
}

/** The Worker's JSON log lines so far. */
function logLines(service: Runtime): LogLine[] {
  return service
    .output()
    .split("\n")
    .flatMap((line) => {
      const start = line.indexOf('{"event":');
      if (start < 0) return [];
      try {
        return [JSON.parse(line.slice(start)) as LogLine];
      } catch {
        return [];
      }
    });
}

/** Requests the stand-in answered for an address, as `operation status`. */
function requestsFor(klaviyo: KlaviyoStandIn, email: string): string[] {
  return klaviyo.received.filter((request) => request.emails.includes(email)).map((request) => `${request.operation} ${request.status}`);
}

/** What the log must never hold: the person's address or names. */
function expectNoPersonalData(service: Runtime, ...values: string[]): void {
  const output = service.output().toLowerCase();
  for (const value of values) expect(output).not.toContain(value.toLowerCase());
}

describe("with a Klaviyo private API key", () => {
  let klaviyo: KlaviyoStandIn;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    service = await startWaitlistService({
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl },
    });
  });

  afterEach(() => {
    klaviyo.reset();
    // Every answer the stand-in gave is one Klaviyo's description allows.
    expect(klaviyo.problems).toEqual([]);
  });

  afterAll(async () => {
    await service?.stop();
    await klaviyo?.close();
  });

  it("imports the profile with names and properties, then subscribes only the address to the list with the custom source", async () => {
    const email = newAddress("ottoline");
    const id = await signUp(service, {
      email,
      firstName: "Ottoline",
      lastName: "Quimby",
      source: "Spring campaign",
      properties: { utm_source: "newsletter", utm_campaign: "spring" },
    });

    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "delivered", delivery_attempts: 1, delivery_error: null });
    expect(Date.parse(row.delivered_at ?? "")).not.toBeNaN();
    expect(requestsFor(klaviyo, email)).toEqual(["create_or_update_profile 201", "bulk_subscribe_profiles 202"]);
    expect(klaviyo.profileImports.filter((profile) => profile.email === email)).toEqual([
      expect.objectContaining({
        firstName: "Ottoline",
        lastName: "Quimby",
        // The referral program's properties ride along (__tests__/service/referral-confirmation.test.ts checks them).
        properties: expect.objectContaining({ utm_source: "newsletter", utm_campaign: "spring", source: "Spring campaign" }) as unknown,
      }),
    ]);
    expect(klaviyo.subscriptions.filter((subscription) => subscription.email === email)).toEqual([
      expect.objectContaining({
        customSource: "Spring campaign",
        listId: TEST_SETTINGS.listId,
        profile: { email, subscriptions: { email: { marketing: { consent: "SUBSCRIBED" } } } },
      }),
    ]);
    expect(logLines(service)).toContainEqual({ event: "delivery_delivered", id, attempt: 1 });
    expectNoPersonalData(service, email, "Ottoline", "Quimby");
  });

  it("gives a signup without a custom source the build's", async () => {
    const email = newAddress("default-source");
    const id = await signUp(service, { email, firstName: "Ada", lastName: "Lovelace" });

    expect((await settled(service, id)).delivery_state).toBe("delivered");
    expect(klaviyo.subscriptions.find((subscription) => subscription.email === email)?.customSource).toBe(TEST_SETTINGS.source);
    expect(klaviyo.profileImports.find((profile) => profile.email === email)?.properties).toMatchObject({ source: TEST_SETTINGS.source });
  });

  it("keeps retrying through a Klaviyo outage and delivers every signup once it is back", async () => {
    const OUTAGE_REQUESTS = 6;
    klaviyo.failFor({ requests: OUTAGE_REQUESTS });
    const people = [newAddress("outage-a"), newAddress("outage-b"), newAddress("outage-c")];
    const ids = await Promise.all(people.map((email) => signUp(service, { email, firstName: "Grace", lastName: "Hopper" })));

    // While Klaviyo fails, the row waits, counting attempts and keeping Klaviyo's answer.
    const waiting = await until(
      () => deliveryOf(service, ids[0]),
      (row) => row.delivery_attempts >= 1,
      "a first failed attempt",
    );
    expect(waiting.delivery_state).toBe("pending");
    expect(waiting.delivery_error).toMatch(/^profile-import: 500\b/);

    const rows = await Promise.all(ids.map((id) => settled(service, id)));

    expect(rows.map((row) => row.delivery_state)).toEqual(["delivered", "delivered", "delivered"]);
    expect(rows.every((row) => row.delivery_error === null && row.delivery_attempts >= 2)).toBe(true);
    // Each failed request was one failed attempt, and each row then had exactly one successful attempt.
    const failedAttempts = rows.reduce((sum, row) => sum + row.delivery_attempts - 1, 0);
    expect(failedAttempts).toBe(OUTAGE_REQUESTS);
    expect(klaviyo.received.filter((request) => request.status === 500)).toHaveLength(OUTAGE_REQUESTS);
    for (const email of people) expect(klaviyo.subscriptions.filter((subscription) => subscription.email === email)).toHaveLength(1);
  });

  it("waits the Retry-After Klaviyo gives with a 429 before trying again", async () => {
    // Longer than the consumer's first backoff (5 s): a retry that ignored Retry-After would come too early.
    const RETRY_AFTER_S = 8;
    klaviyo.throttle({ retryAfterS: RETRY_AFTER_S });
    const email = newAddress("throttled");
    const id = await signUp(service, { email, firstName: "Katherine", lastName: "Johnson" });

    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "delivered", delivery_attempts: 2, delivery_error: null });
    const requests = klaviyo.received.filter((request) => request.emails.includes(email));
    expect(requests.map((request) => `${request.operation} ${request.status}`)).toEqual([
      "create_or_update_profile 429",
      "create_or_update_profile 201",
      "bulk_subscribe_profiles 202",
    ]);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    expect(logLines(service)).toContainEqual(expect.objectContaining({ event: "delivery_retry", id, status: 429, delayS: RETRY_AFTER_S }));
  });

  it("keeps a signup pending through a revoked key (a configuration problem, not a refusal) and delivers it once the key works", async () => {
    klaviyo.revokeKey();
    const email = newAddress("revoked-key");
    const id = await signUp(service, { email, firstName: "Mary", lastName: "Jackson" });

    const waiting = await until(
      () => deliveryOf(service, id),
      (row) => row.delivery_attempts >= 1,
      "a first attempt",
    );
    expect(waiting.delivery_state).toBe("pending");
    expect(waiting.delivery_error).toMatch(/^profile-import: 401 authentication_failed/);
    klaviyo.reset();

    expect(await settled(service, id)).toMatchObject({ delivery_state: "delivered", delivery_attempts: 2, delivery_error: null });
    expect(logLines(service).some((line) => line.event === "delivery_dead_letter" && line.id === id)).toBe(false);
  });

  it("marks an address Klaviyo refuses `refused` with its reason, without the address, and dead-letters it", async () => {
    const email = newAddress("refused");
    // Klaviyo's detail may quote what it refused; none of it may reach the row or the log.
    klaviyo.refuse(email, `Invalid email address: ${email}`);
    const id = await signUp(service, { email, firstName: "Rosalind", lastName: "Franklin" });

    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "refused", delivery_attempts: 1, delivered_at: null });
    expect(row.delivery_error).toBe("profile-import: 400 invalid at /data/attributes/email: Invalid email address: [address]");
    expect(requestsFor(klaviyo, email)).toEqual(["create_or_update_profile 400"]);
    expect(klaviyo.subscriptions.filter((subscription) => subscription.email === email)).toEqual([]);
    // The dead-letter queue's consumer logs each message it receives: this one went through it.
    const deadLetter = await until(
      () => logLines(service).find((line) => line.event === "delivery_dead_letter" && line.id === id),
      (line) => line !== undefined,
      "the dead letter",
    );
    expect(deadLetter).toMatchObject({ state: "refused", attempts: 1, reason: row.delivery_error });
    expectNoPersonalData(service, email, "Rosalind", "Franklin");
  });
});

describe("the cron sweep", () => {
  let klaviyo: KlaviyoStandIn;
  let worker: ServiceInMiniflare;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    // In Miniflare: wrangler dev cannot fire the scheduled handler of a Worker with static assets (see the module).
    worker = await startServiceInMiniflare({ vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl } });
  });

  afterAll(async () => {
    await worker?.stop();
    await klaviyo?.close();
  });

  it("sweeps up pending signups whose message was lost or ran out of retries, and leaves those still queued alone", async () => {
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const insert = async (label: string, createdAt: string, attempts: number, dueAt: string | null) => {
      const email = newAddress(label);
      const id = `sweep-${label}-${addressNumber}`;
      await worker.query(
        `INSERT INTO signups (id, seq, email, email_key, first_name, last_name, source, properties, created_at, delivery_attempts, delivery_due_at)
         SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, lower(?2), 'Lost', 'Message', NULL, '{}', ?3, ?4, ?5 FROM signups`,
        id,
        email,
        createdAt,
        attempts,
        dueAt,
      );
      return { id, email };
    };
    // Stored, but the route could not enqueue it (no message ever existed).
    const neverQueued = await insert("never-queued", minutesAgo(60), 0, null);
    // Its message went to the dead-letter queue after the last retry, due 20 minutes ago.
    const exhausted = await insert("exhausted", minutesAgo(24 * 60), 100, minutesAgo(20));
    // Its message is waiting in the queue for a retry due in 10 minutes, and one just stored: not the sweep's.
    const waiting = await insert("waiting", minutesAgo(30), 3, new Date(Date.now() + 10 * 60_000).toISOString());
    const fresh = await insert("fresh", new Date().toISOString(), 0, null);

    expect(await worker.scheduled("*/5 * * * *")).toBe("ok");

    expect((await settled(worker, neverQueued.id)).delivery_state).toBe("delivered");
    expect((await settled(worker, exhausted.id)).delivery_state).toBe("delivered");
    expect(logLines(worker)).toContainEqual({ event: "delivery_sweep", requeued: 2, profileUpdates: 0 });
    for (const untouched of [waiting, fresh]) {
      expect(await deliveryOf(worker, untouched.id)).toMatchObject({ delivery_state: "pending", delivery_error: null });
      expect(requestsFor(klaviyo, untouched.email)).toEqual([]);
    }
  });

  it("sends again a profile update that ran out of retries, once, and never one Klaviyo refused", async () => {
    const signUpInWorker = async (label: string) => {
      const email = newAddress(label);
      const response = await worker.fetch("/api/signups", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost", "cf-connecting-ip": "198.51.100.77" },
        body: JSON.stringify({ email, firstName: "Ada", lastName: "Lovelace" }),
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      expect((await settled(worker, id)).delivery_state).toBe("delivered");
      return { id, email };
    };
    const owedUpdate = (id: string) =>
      worker.query<{ due: string | null }>("SELECT profile_update_due_at AS due FROM signups WHERE id = ?1", id).then(([row]) => row.due);
    const exhausted = await signUpInWorker("profile-exhausted");
    const refused = await signUpInWorker("profile-refused");
    const importsBefore = (email: string) =>
      requestsFor(klaviyo, email).filter((request) => request.startsWith("create_or_update_profile")).length;
    const exhaustedImports = importsBefore(exhausted.email);

    // As Cloudflare does after the last retry, and as the consumer does with an update Klaviyo refused.
    await worker.deadLetter({ signupId: exhausted.id, kind: "profile" });
    await worker.deadLetter({ signupId: refused.id, kind: "profile", refused: true });
    await until(
      () =>
        logLines(worker).filter((line) => line.event === "delivery_dead_letter" && [exhausted.id, refused.id].includes(line.id as string)),
      (lines) => lines.length === 2,
      "both dead letters",
    );
    expect(await owedUpdate(exhausted.id)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await owedUpdate(refused.id)).toBeNull();

    expect(await worker.scheduled("*/5 * * * *")).toBe("ok");
    await until(
      () => importsBefore(exhausted.email),
      (imports) => imports === exhaustedImports + 1,
      "the owed profile update to reach Klaviyo",
    );
    expect(logLines(worker)).toContainEqual({ event: "delivery_sweep", requeued: 0, profileUpdates: 1 });
    expect(await owedUpdate(exhausted.id)).toBeNull();

    // Sent once: the next sweep owes nothing.
    expect(await worker.scheduled("*/5 * * * *")).toBe("ok");
    expect(
      logLines(worker)
        .filter((line) => line.event === "delivery_sweep")
        .at(-1),
    ).toEqual({
      event: "delivery_sweep",
      requeued: 0,
      profileUpdates: 0,
    });
    expect(importsBefore(refused.email)).toBe(1);
  });
});

describe("without a Klaviyo private API key (demo delivery)", () => {
  let klaviyo: KlaviyoStandIn;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    // Klaviyo's URL points at the stand-in, so anything sent would be seen.
    service = await startWaitlistService({ vars: { KLAVIYO_API_URL: klaviyo.apiUrl } });
  });

  afterAll(async () => {
    await service?.stop();
    await klaviyo?.close();
  });

  it("marks the signup `demo`, logs one line without personal data and sends nothing", async () => {
    const email = newAddress("demo");
    const id = await signUp(service, { email, firstName: "Hedy", lastName: "Lamarr" });

    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "demo", delivery_attempts: 0, delivery_error: null, delivered_at: null });
    expect(logLines(service).filter((line) => line.event === "delivery_demo")).toEqual([{ event: "delivery_demo", id }]);
    expect(klaviyo.received).toEqual([]);
    expectNoPersonalData(service, email, "Hedy", "Lamarr");
  });
});
