/**
 * Invitations on their way (docs/delivery.md: Invitations): each a Klaviyo Create Event through the delivery queue,
 * with the invitation's id as its unique_id, retried after a 429's Retry-After or a 500, dead-lettered when refused,
 * resumed by the cron when a Worker died between its rows and its messages; and the batch's progress on its row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { BatchAnswer, LaunchPreview } from "../../shared/api/launch";
import { INVITATION_TOKEN_PATTERN, LAUNCH_BATCHES_ENDPOINT, LAUNCH_PREVIEW_ENDPOINT } from "../../shared/launch";
import { LOCAL_ORIGIN, logLinesOf, TEST_SETTINGS, type WaitlistService } from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";
import { personActionEndpoint } from "../../shared/console";
import { launchService, postJson, resetLine, signUpConfirmed, statusOf } from "./support/launch";

/** People sign up on a demo service (demo delivery confirms them); invitations go out through the Klaviyo one. */
const signups = launchService();
let klaviyo: KlaviyoStandInClient;
let service: WaitlistService;

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  service = launchService({ vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl } });
});
afterAll(() => klaviyo.close());
beforeEach(async () => {
  await resetLine(signups);
  service.discard();
  service.discard("waitlist-delivery-dlq");
  await klaviyo.reset();
  eventsBefore = (await klaviyo.records()).events.length;
});

/** The stand-in keeps its records across tests: the events this test sent. */
let eventsBefore = 0;
async function newEvents() {
  return (await klaviyo.records()).events.slice(eventsBefore);
}

async function inviteNext(target: WaitlistService, count: number): Promise<BatchAnswer> {
  const preview = await (await target.fetch(`${LAUNCH_PREVIEW_ENDPOINT}?count=${count}`)).json<LaunchPreview>();
  const response = await target.fetch(LAUNCH_BATCHES_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", origin: LOCAL_ORIGIN },
    body: JSON.stringify({ count, reason: "Launch", idempotencyKey: preview.idempotencyKey }),
  });
  expect(response.status).toBe(201);
  return response.json<BatchAnswer>();
}

/** Deliver until nothing waits (retried messages again), at most `rounds` times. */
async function deliverAll(target: WaitlistService, rounds = 10): Promise<void> {
  for (let round = 0; round < rounds && target.queued().length > 0; round += 1) await target.deliver();
}

/** The origin the tests' product sign-up page is on. */
const PRODUCT_ORIGIN = "https://app.example.com";

/** A service sending through the Klaviyo stand-in, its build naming `productSignupUrl`, its Worker PRODUCT_SIGNUP_ORIGIN. */
function productService(productSignupUrl: string, productSignupOrigin: string): WaitlistService {
  return launchService({
    settings: { ...TEST_SETTINGS, launch: { ...TEST_SETTINGS.launch, productSignupUrl } },
    vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl, PRODUCT_SIGNUP_ORIGIN: productSignupOrigin },
  });
}

async function batchRow(id: string) {
  const [row] = await service.query<{ invited: number; sent: number; failed: number; state: string }>(
    "SELECT invited, sent, failed, state FROM launch_batches WHERE id = ?1",
    id,
  );
  return row;
}

describe("the invitation event", () => {
  it("sends one Create Event per invitation: metric, unique_id, invite_url, invite_expires_at, waitlist_place", async () => {
    const people = await signUpConfirmed(signups, 3);
    const { batch } = await inviteNext(service, 3);
    await service.deliver();
    const events = await newEvents();
    const invitations = await service.query<{ id: string; person_id: string; place: number; expires_at: string; token_hash: string }>(
      "SELECT id, person_id, place, expires_at, token_hash FROM invitations WHERE batch_id = ?1 ORDER BY place",
      batch.id,
    );
    expect(events).toHaveLength(3);
    expect(events.map((event) => event.uniqueId).sort()).toEqual(invitations.map((row) => row.id).sort());
    for (const [index, invitation] of invitations.entries()) {
      const event = events.find((sent) => sent.uniqueId === invitation.id)!;
      expect(event.metric).toBe("Waitlist invitation");
      expect(event.email).toBe(people[index].email);
      expect(event.properties).toMatchObject({ invite_expires_at: invitation.expires_at, waitlist_place: index + 1 });
      const url = new URL(String(event.properties.invite_url));
      expect(`${url.origin}${url.pathname}`).toBe(`${TEST_SETTINGS.siteUrl}/invite/`);
      expect(url.searchParams.get("invite")).toMatch(INVITATION_TOKEN_PATTERN);
      // Only the token's SHA-256 is stored.
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url.searchParams.get("invite")!));
      expect([...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("")).toBe(invitation.token_hash);
    }
    expect(Date.parse(invitations[0].expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await batchRow(batch.id)).toEqual({ invited: 3, sent: 3, failed: 0, state: "done" });
  });

  it("leads to the content's product sign-up URL when it names one", async () => {
    await signUpConfirmed(signups, 1);
    const product = launchService({
      settings: { ...TEST_SETTINGS, launch: { ...TEST_SETTINGS.launch, productSignupUrl: "https://app.example.com/join?from=waitlist" } },
      vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl, PRODUCT_SIGNUP_ORIGIN: PRODUCT_ORIGIN },
    });
    await inviteNext(product, 1);
    await product.deliver();
    const [event] = await newEvents();
    const url = new URL(String(event.properties.invite_url));
    expect(`${url.origin}${url.pathname}`).toBe("https://app.example.com/join");
    expect(url.searchParams.get("from")).toBe("waitlist");
    expect(url.searchParams.get("invite")).toMatch(INVITATION_TOKEN_PATTERN);
  });

  it("invitations to another origin than PRODUCT_SIGNUP_ORIGIN are refused by the Worker", async () => {
    const [person] = await signUpConfirmed(signups, 1);
    const elsewhere = productService("https://collector.example/join", PRODUCT_ORIGIN);
    const { batch } = await inviteNext(elsewhere, 1);
    await elsewhere.deliver();
    const reason = `invitation link's origin https://collector.example is not PRODUCT_SIGNUP_ORIGIN (${PRODUCT_ORIGIN})`;
    // No event, no token anywhere: the invitation is settled as never sent, with the reason on its row and in the log.
    expect(await newEvents()).toEqual([]);
    expect(await batchRow(batch.id)).toEqual({ invited: 1, sent: 0, failed: 1, state: "done" });
    expect(await elsewhere.query("SELECT send_state, send_error FROM invitations WHERE batch_id = ?1", batch.id)).toEqual([
      { send_state: "failed", send_error: `not sent: ${reason}` },
    ]);
    expect(logLinesOf(elsewhere, "invitation_skipped")).toEqual([expect.objectContaining({ reason })]);
    // Nor does the person's status page hand the link out.
    expect(await statusOf(elsewhere, person)).toMatchObject({ invitation: { state: "invited", inviteUrl: null } });
    expect(logLinesOf(elsewhere, "invitation_link_refused")).toEqual([expect.objectContaining({ reason })]);
    expect(elsewhere.output()).not.toMatch(/[?&]invite=/);
  });

  it("refuses any product sign-up page in the content while PRODUCT_SIGNUP_ORIGIN is empty", async () => {
    await signUpConfirmed(signups, 1);
    const unset = productService("https://app.example.com/join", "");
    const { batch } = await inviteNext(unset, 1);
    await unset.deliver();
    expect(await newEvents()).toEqual([]);
    expect(await batchRow(batch.id)).toMatchObject({ sent: 0, failed: 1 });
    expect(logLinesOf(unset, "invitation_skipped")).toEqual([
      expect.objectContaining({ reason: "invitation link's origin https://app.example.com is not PRODUCT_SIGNUP_ORIGIN (none)" }),
    ]);
  });

  it("waits out a 429's Retry-After, then sends it once", async () => {
    await signUpConfirmed(signups, 1);
    const { batch } = await inviteNext(service, 1);
    await klaviyo.throttle({ retryAfterS: 42 });
    const [round] = await service.deliver();
    expect(round.decisions).toMatchObject([{ ack: false, delaySeconds: 42 }]);
    expect(await batchRow(batch.id)).toMatchObject({ sent: 0, state: "sending" });
    await service.deliver();
    expect(await newEvents()).toHaveLength(1);
    expect(await batchRow(batch.id)).toMatchObject({ sent: 1, state: "done" });
  });

  it("an erase racing an invitation event still in flight to Klaviyo owes the deletion again", async () => {
    const [person] = await signUpConfirmed(signups, 1);
    await inviteNext(service, 1);
    // The event leaves, and is still on its way when the operator erases the person.
    await klaviyo.hold("create_event");
    const sending = service.deliver();
    await expect.poll(async () => (await klaviyo.records()).held, { timeout: 10_000 }).toBe(1);
    expect((await postJson(service, personActionEndpoint(person.id, "erase"), { reason: "Privacy request" })).status).toBe(200);
    // A second consumer runs the deletion job first, and it is done; then the event lands and makes the profile again.
    await service.deliver({ alongside: true });
    expect(await service.query("SELECT id FROM erasures WHERE id = ?1", person.id)).toEqual([]);
    await klaviyo.release();
    await sending;
    expect(await service.query("SELECT id, email FROM erasures WHERE id = ?1", person.id)).toEqual([
      { id: person.id, email: person.email },
    ]);
  });

  it("a 500 storm in the middle of a batch leaves every invitation sent exactly once", async () => {
    await signUpConfirmed(signups, 12);
    const { batch } = await inviteNext(service, 12);
    await klaviyo.failFor({ requests: 5 });
    await deliverAll(service);
    const events = await newEvents();
    const ids = await service.query<{ id: string; person_id: string }>(
      "SELECT id, person_id FROM invitations WHERE batch_id = ?1",
      batch.id,
    );
    expect(new Set(events.map((event) => event.uniqueId))).toEqual(new Set(ids.map((row) => row.id)));
    expect(events).toHaveLength(12);
    expect(new Set(events.map((event) => event.email)).size).toBe(12);
    expect(await batchRow(batch.id)).toEqual({ invited: 12, sent: 12, failed: 0, state: "done" });
  });

  it("marks a refused event failed and dead-letters it", async () => {
    const [person] = await signUpConfirmed(signups, 1);
    await klaviyo.refuse(person.email);
    const { batch } = await inviteNext(service, 1);
    const rounds = await service.deliver();
    expect(await batchRow(batch.id)).toMatchObject({ sent: 0, failed: 1, state: "done" });
    const deadLetters = rounds.find((round) => round.queue === "waitlist-delivery-dlq");
    expect(deadLetters?.decisions.map(({ body }) => body)).toEqual([expect.objectContaining({ kind: "invitation", refused: true })]);
  });

  it("resumes a batch whose Worker died before its messages were queued: the cron queues them again", async () => {
    await signUpConfirmed(signups, 2);
    const { batch } = await inviteNext(service, 2);
    expect(service.discard()).toHaveLength(2);
    await service.scheduled("*/5 * * * *", Date.now() + 2 * 3_600_000);
    await service.deliver();
    expect(await newEvents()).toHaveLength(2);
    expect(await batchRow(batch.id)).toMatchObject({ sent: 2, state: "done" });
  });
});
