/**
 * Klaviyo's list reads (worker/src/delivery/klaviyo.ts: listMembership, listOptInProcess) sent from workerd, as the
 * queue consumer sends them, to the loopback Klaviyo stand-in, which holds each request to Klaviyo's OpenAPI
 * description (query parameters included) and answers from the lists the test names.
 */
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { listMembership, listOptInProcess, type KlaviyoAccount } from "../../worker/src/delivery/klaviyo";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

const LIST_ID = "WtL1st";

let klaviyo: KlaviyoStandInClient;
let account: KlaviyoAccount;

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  account = { apiUrl: klaviyo.apiUrl, privateApiKey: klaviyo.privateApiKey };
});

afterEach(async () => {
  await klaviyo.reset();
  expect((await klaviyo.records()).problems).toEqual([]);
});

afterAll(() => klaviyo.close());

it("an address is absent from a double opt-in list until the person confirms, then a member", async () => {
  await klaviyo.setList(LIST_ID);
  expect(await listMembership("Later.Confirmed+tag@example.com", LIST_ID, account)).toEqual({ kind: "absent" });
  await klaviyo.addToList(LIST_ID, "later.confirmed+tag@example.com");
  expect(await listMembership("Later.Confirmed+tag@example.com", LIST_ID, account)).toEqual({ kind: "member" });
  const asked = (await klaviyo.records()).received.filter((request) => request.operation === "get_profiles_for_list");
  expect(asked.map((request) => [request.status, request.emails])).toEqual([
    [200, ["Later.Confirmed+tag@example.com"]],
    [200, ["Later.Confirmed+tag@example.com"]],
  ]);
});

it("a throttled read carries Klaviyo's Retry-After, and an unknown list is a failure", async () => {
  await klaviyo.throttle({ retryAfterS: 12 });
  expect(await listMembership("someone@example.com", LIST_ID, account)).toMatchObject({ kind: "throttled", retryAfterS: 12 });
  expect(await listMembership("someone@example.com", "NoSuchList", account)).toMatchObject({ kind: "failed", status: 404 });
});

it("reads the list's opt-in process", async () => {
  await klaviyo.setList("Single1", { optInProcess: "single_opt_in" });
  expect(await listOptInProcess("Single1", account)).toEqual({ kind: "single_opt_in" });
  expect(await listOptInProcess(LIST_ID, account)).toEqual({ kind: "double_opt_in" });
});
