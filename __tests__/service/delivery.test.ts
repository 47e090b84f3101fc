/**
 * Delivery to Klaviyo, against the Worker in workerd (the Workers pool: the route, the queue's consumer, the
 * dead-letter queue's consumer and the cron sweep, each handed its batch or event by the test) and a loopback Klaviyo
 * stand-in that holds every request to Klaviyo's OpenAPI description: a signup reaches Klaviyo as documented, an
 * outage and throttling lose nothing, a refused address is marked and dead-lettered, a lost message is swept up, and
 * without a key nothing is sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEAD_LETTER_QUEUE, postSignup, startWaitlistService, TEST_SETTINGS, type WaitlistService } from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

/**
 * The most batches a test hands the consumer before a delivery must have settled: an outage of a few requests and a
 * throttle take a few retries, never this many.
 */
const MAX_ROUNDS = 20;

/** The cron trigger of wrangler.jsonc. */
const SWEEP_CRON = "*/5 * * * *";

/** A row's delivery columns. */
interface DeliveryColumns {
  id: string;
  delivery_state: string;
  delivery_attempts: number;
  delivery_error: string | null;
  delivered_at: string | null;
}

/** A running Worker whose D1 and log a test reads. */
type Runtime = Pick<WaitlistService, "query" | "output" | "deliver">;

/** One JSON log line of the Worker. */
interface LogLine {
  event: string;
  [field: string]: unknown;
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
  expect(response.status).toBe(202);
  return (await response.json<{ id: string }>()).id;
}

async function deliveryOf(service: Runtime, id: string): Promise<DeliveryColumns> {
  const [row] = await service.query<DeliveryColumns>(
    "SELECT id, delivery_state, delivery_attempts, delivery_error, delivered_at FROM signups WHERE id = ?1",
    id,
  );
  return row;
}

/**
 * Hand the queues to the consumer, batch after batch (retried messages again), until the row is no longer `pending`.
 * @throws Error with the row when the queues run dry or MAX_ROUNDS pass with the row still pending
 */
async function settled(service: Runtime, id: string): Promise<DeliveryColumns> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const row = await deliveryOf(service, id);
    if (row.delivery_state !== "pending") return row;
    if ((await service.deliver()).length === 0) {
      // Nothing waited: another caller's batch may have settled the row meanwhile.
      const after = await deliveryOf(service, id);
      if (after.delivery_state !== "pending") return after;
      break;
    }
  }
  throw new Error(`signup ${id} did not settle: ${JSON.stringify(await deliveryOf(service, id))}`);
}

/** Hand the queues to the consumer once; the row afterwards. */
async function afterOneAttempt(service: Runtime, id: string): Promise<DeliveryColumns> {
  await service.deliver();
  return deliveryOf(service, id);
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
async function requestsFor(klaviyo: KlaviyoStandInClient, email: string): Promise<string[]> {
  return (await klaviyo.records()).received
    .filter((request) => request.emails.includes(email))
    .map((request) => `${request.operation} ${request.status}`);
}

/** What the log must never hold: the person's address or names. */
function expectNoPersonalData(service: Runtime, ...values: string[]): void {
  const output = service.output().toLowerCase();
  for (const value of values) expect(output).not.toContain(value.toLowerCase());
}

describe("with a Klaviyo private API key", () => {
  let klaviyo: KlaviyoStandInClient;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    service = startWaitlistService({
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl },
    });
  });

  afterEach(async () => {
    await klaviyo.reset();
    // Every answer the stand-in gave is one Klaviyo's description allows.
    expect((await klaviyo.records()).problems).toEqual([]);
  });

  afterAll(() => klaviyo?.close());

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
    expect(await requestsFor(klaviyo, email)).toEqual(["create_or_update_profile 201", "bulk_subscribe_profiles 202"]);
    expect((await klaviyo.records()).profileImports.filter((profile) => profile.email === email)).toEqual([
      expect.objectContaining({
        firstName: "Ottoline",
        lastName: "Quimby",
        // The referral program's properties ride along (__tests__/service/referral-confirmation.test.ts checks them).
        properties: expect.objectContaining({ utm_source: "newsletter", utm_campaign: "spring", source: "Spring campaign" }) as unknown,
      }),
    ]);
    expect((await klaviyo.records()).subscriptions.filter((subscription) => subscription.email === email)).toEqual([
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
    expect((await klaviyo.records()).subscriptions.find((subscription) => subscription.email === email)?.customSource).toBe(
      TEST_SETTINGS.source,
    );
    expect((await klaviyo.records()).profileImports.find((profile) => profile.email === email)?.properties).toMatchObject({
      source: TEST_SETTINGS.source,
    });
  });

  it("keeps retrying through a Klaviyo outage and delivers every signup once it is back", async () => {
    const OUTAGE_REQUESTS = 6;
    await klaviyo.failFor({ requests: OUTAGE_REQUESTS });
    const people = [newAddress("outage-a"), newAddress("outage-b"), newAddress("outage-c")];
    const ids = await Promise.all(people.map((email) => signUp(service, { email, firstName: "Grace", lastName: "Hopper" })));

    // While Klaviyo fails, the row waits, counting attempts and keeping Klaviyo's answer.
    const waiting = await afterOneAttempt(service, ids[0]);
    expect(waiting.delivery_attempts).toBeGreaterThanOrEqual(1);
    expect(waiting.delivery_state).toBe("pending");
    expect(waiting.delivery_error).toMatch(/^profile-import: 500\b/);

    const rows = await Promise.all(ids.map((id) => settled(service, id)));

    expect(rows.map((row) => row.delivery_state)).toEqual(["delivered", "delivered", "delivered"]);
    expect(rows.every((row) => row.delivery_error === null && row.delivery_attempts >= 2)).toBe(true);
    // Each failed request was one failed attempt, and each row then had exactly one successful attempt.
    const failedAttempts = rows.reduce((sum, row) => sum + row.delivery_attempts - 1, 0);
    expect(failedAttempts).toBe(OUTAGE_REQUESTS);
    expect((await klaviyo.records()).received.filter((request) => request.status === 500)).toHaveLength(OUTAGE_REQUESTS);
    for (const email of people)
      expect((await klaviyo.records()).subscriptions.filter((subscription) => subscription.email === email)).toHaveLength(1);
  });

  it("waits the Retry-After Klaviyo gives with a 429 before trying again", async () => {
    // Longer than the consumer's first backoff (5 s): a retry that ignored Retry-After would ask for the backoff.
    const RETRY_AFTER_S = 8;
    await klaviyo.throttle({ retryAfterS: RETRY_AFTER_S });
    const email = newAddress("throttled");
    const id = await signUp(service, { email, firstName: "Katherine", lastName: "Johnson" });

    const [first] = await service.deliver();
    expect(first.decisions).toEqual([expect.objectContaining({ ack: false, delaySeconds: RETRY_AFTER_S })]);
    expect(first.result.retryMessages).toEqual([{ msgId: first.decisions[0].id }]);
    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "delivered", delivery_attempts: 2, delivery_error: null });
    const requests = (await klaviyo.records()).received.filter((request) => request.emails.includes(email));
    expect(requests.map((request) => `${request.operation} ${request.status}`)).toEqual([
      "create_or_update_profile 429",
      "create_or_update_profile 201",
      "bulk_subscribe_profiles 202",
    ]);
    expect(logLines(service)).toContainEqual(expect.objectContaining({ event: "delivery_retry", id, status: 429, delayS: RETRY_AFTER_S }));
  });

  it("keeps a signup pending through a revoked key (a configuration problem, not a refusal) and delivers it once the key works", async () => {
    await klaviyo.revokeKey();
    const email = newAddress("revoked-key");
    const id = await signUp(service, { email, firstName: "Mary", lastName: "Jackson" });

    const waiting = await afterOneAttempt(service, id);
    expect(waiting.delivery_attempts).toBeGreaterThanOrEqual(1);
    expect(waiting.delivery_state).toBe("pending");
    expect(waiting.delivery_error).toMatch(/^profile-import: 401 authentication_failed/);
    await klaviyo.reset();

    expect(await settled(service, id)).toMatchObject({ delivery_state: "delivered", delivery_attempts: 2, delivery_error: null });
    expect(logLines(service).some((line) => line.event === "delivery_dead_letter" && line.id === id)).toBe(false);
  });

  it("marks an address Klaviyo refuses `refused` with its reason, without the address, and dead-letters it", async () => {
    const email = newAddress("refused");
    // Klaviyo's detail may quote what it refused; none of it may reach the row or the log.
    await klaviyo.refuse(email, `Invalid email address: ${email}`);
    const id = await signUp(service, { email, firstName: "Rosalind", lastName: "Franklin" });

    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "refused", delivery_attempts: 1, delivered_at: null });
    expect(row.delivery_error).toBe("profile-import: 400 invalid at /data/attributes/email: Invalid email address: [address]");
    expect(await requestsFor(klaviyo, email)).toEqual(["create_or_update_profile 400"]);
    expect((await klaviyo.records()).subscriptions.filter((subscription) => subscription.email === email)).toEqual([]);
    // The dead-letter queue's consumer logs each message it receives: this one went through it.
    await service.deliver();
    const deadLetter = logLines(service).find((line) => line.event === "delivery_dead_letter" && line.id === id);
    expect(deadLetter).toMatchObject({ state: "refused", attempts: 1, reason: row.delivery_error });
    expectNoPersonalData(service, email, "Rosalind", "Franklin");
  });
});

describe("the cron sweep", () => {
  let klaviyo: KlaviyoStandInClient;
  let worker: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    worker = startWaitlistService({ vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl } });
  });

  afterAll(() => klaviyo?.close());

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

    await worker.scheduled(SWEEP_CRON);

    expect((await settled(worker, neverQueued.id)).delivery_state).toBe("delivered");
    expect((await settled(worker, exhausted.id)).delivery_state).toBe("delivered");
    expect(logLines(worker)).toContainEqual({ event: "delivery_sweep", requeued: 2, profileUpdates: 0, erasures: 0 });
    for (const untouched of [waiting, fresh]) {
      expect(await deliveryOf(worker, untouched.id)).toMatchObject({ delivery_state: "pending", delivery_error: null });
      expect(await requestsFor(klaviyo, untouched.email)).toEqual([]);
    }
  });

  it("sends again a profile update that ran out of retries, once, and never one Klaviyo refused", async () => {
    const signUpInWorker = async (label: string) => {
      const email = newAddress(label);
      const id = await signUp(worker, { email, firstName: "Ada", lastName: "Lovelace" });
      expect((await settled(worker, id)).delivery_state).toBe("delivered");
      return { id, email };
    };
    const owedUpdate = (id: string) =>
      worker.query<{ due: string | null }>("SELECT profile_update_due_at AS due FROM signups WHERE id = ?1", id).then(([row]) => row.due);
    const exhausted = await signUpInWorker("profile-exhausted");
    const refused = await signUpInWorker("profile-refused");
    const importsBefore = async (email: string) =>
      (await requestsFor(klaviyo, email)).filter((request) => request.startsWith("create_or_update_profile")).length;
    const exhaustedImports = await importsBefore(exhausted.email);

    // As Cloudflare does after the last retry, and as the consumer does with an update Klaviyo refused.
    worker.enqueue(DEAD_LETTER_QUEUE, { signupId: exhausted.id, kind: "profile" });
    worker.enqueue(DEAD_LETTER_QUEUE, { signupId: refused.id, kind: "profile", refused: true });
    await worker.deliver();
    expect(
      logLines(worker).filter((line) => line.event === "delivery_dead_letter" && [exhausted.id, refused.id].includes(line.id as string)),
    ).toHaveLength(2);
    expect(await owedUpdate(exhausted.id)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await owedUpdate(refused.id)).toBeNull();

    await worker.scheduled(SWEEP_CRON);
    await worker.deliver();
    expect(await importsBefore(exhausted.email)).toBe(exhaustedImports + 1);
    expect(logLines(worker)).toContainEqual({ event: "delivery_sweep", requeued: 0, profileUpdates: 1, erasures: 0 });
    expect(await owedUpdate(exhausted.id)).toBeNull();

    // Sent once: the next sweep owes nothing.
    await worker.scheduled(SWEEP_CRON);
    expect(
      logLines(worker)
        .filter((line) => line.event === "delivery_sweep")
        .at(-1),
    ).toEqual({
      event: "delivery_sweep",
      requeued: 0,
      profileUpdates: 0,
      erasures: 0,
    });
    expect(await importsBefore(refused.email)).toBe(1);
  });
});

describe("without a Klaviyo private API key (demo delivery)", () => {
  let klaviyo: KlaviyoStandInClient;
  let service: WaitlistService;

  beforeAll(async () => {
    klaviyo = await startKlaviyoStandIn();
    // Klaviyo's URL points at the stand-in, so anything sent would be seen.
    service = startWaitlistService({ vars: { KLAVIYO_API_URL: klaviyo.apiUrl } });
  });

  afterAll(() => klaviyo?.close());

  it("marks the signup `demo`, logs one line without personal data and sends nothing", async () => {
    const email = newAddress("demo");
    const id = await signUp(service, { email, firstName: "Hedy", lastName: "Lamarr" });

    const row = await settled(service, id);

    expect(row).toMatchObject({ delivery_state: "demo", delivery_attempts: 0, delivery_error: null, delivered_at: null });
    expect(logLines(service).filter((line) => line.event === "delivery_demo")).toEqual([
      { event: "delivery_demo", id, confirmed: true, referralCounted: false },
    ]);
    expect((await klaviyo.records()).received).toEqual([]);
    expectNoPersonalData(service, email, "Hedy", "Lamarr");
  });
});
