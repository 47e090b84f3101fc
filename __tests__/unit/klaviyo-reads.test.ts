/**
 * @jest-environment node
 *
 * Klaviyo's list reads as the service sends them (worker/src/delivery/klaviyo.ts: listMembership, listOptInProcess),
 * against the loopback stand-in (scripts/lib/klaviyo-stand-in.ts), which holds every request to Klaviyo's OpenAPI
 * description and answers as Klaviyo documents; and the delivery's own requests still going through after the request
 * helper was shared with the reads.
 */
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import {
  deliverToKlaviyo,
  filterString,
  listMembership,
  listOptInProcess,
  type KlaviyoAccount,
  type KlaviyoSignup,
} from "../../worker/src/delivery/klaviyo";

const LIST_ID = "WtL1st";

let klaviyo: KlaviyoStandIn;
let account: KlaviyoAccount;

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  account = { apiUrl: klaviyo.apiUrl, privateApiKey: klaviyo.privateApiKey };
});

afterEach(() => {
  klaviyo.reset();
  expect(klaviyo.problems).toEqual([]);
});

afterAll(() => klaviyo.close());

const signup = (email: string, listId = LIST_ID): KlaviyoSignup => ({
  email,
  firstName: "Jordan",
  lastName: "Smith",
  customSource: "PickFund waitlist",
  listId,
  properties: {},
});

describe("listMembership", () => {
  test("an address subscribed to a double opt-in list is absent until the person confirms, then a member", async () => {
    klaviyo.setList(LIST_ID);
    expect(await deliverToKlaviyo(signup("pending@example.com"), account)).toEqual({ kind: "delivered" });
    expect(await listMembership("pending@example.com", LIST_ID, account)).toEqual({ kind: "absent" });
    klaviyo.addToList(LIST_ID, "pending@example.com");
    expect(await listMembership("pending@example.com", LIST_ID, account)).toEqual({ kind: "member" });
  });

  test("a subscriber of a single opt-in list is a member at once", async () => {
    klaviyo.setList("Single1", { optInProcess: "single_opt_in" });
    await deliverToKlaviyo(signup("at-once@example.com", "Single1"), account);
    expect(await listMembership("at-once@example.com", "Single1", account)).toEqual({ kind: "member" });
  });

  test("sends the filter, the sparse fieldset, the revision and the private key Klaviyo documents", async () => {
    klaviyo.addToList(LIST_ID, "Mixed.Case@Example.com");
    const seen: { url: string; headers: Headers }[] = [];
    const recording: typeof fetch = (input, init) => {
      seen.push({ url: input instanceof Request ? input.url : input.toString(), headers: new Headers(init?.headers) });
      return fetch(input, init);
    };
    expect(await listMembership("mixed.case@example.com", LIST_ID, account, recording)).toEqual({ kind: "member" });
    const url = new URL(seen[0].url);
    expect(url.pathname).toBe(`/api/lists/${LIST_ID}/profiles`);
    expect(url.searchParams.get("filter")).toBe('equals(email,"mixed.case@example.com")');
    expect(url.searchParams.get("fields[profile]")).toBe("email");
    expect(seen[0].headers.get("authorization")).toBe(`Klaviyo-API-Key ${klaviyo.privateApiKey}`);
    expect(seen[0].headers.get("revision")).toBe("2026-07-15");
    expect(klaviyo.received.at(-1)).toMatchObject({ operation: "get_profiles_for_list", status: 200 });
  });

  test("an address that tries to close the filter's string stays one value and finds nobody", async () => {
    klaviyo.addToList(LIST_ID, "victim@example.com");
    const injected = 'x@example.com"),equals(email,"victim@example.com';
    expect(filterString(injected)).toBe('"x@example.com\\"),equals(email,\\"victim@example.com"');
    expect(await listMembership(injected, LIST_ID, account)).toEqual({ kind: "absent" });
  });

  test("an answer naming only other profiles is no answer: failed, never a member", async () => {
    const otherProfile: typeof fetch = () =>
      Promise.resolve(
        new Response(JSON.stringify({ data: [{ type: "profile", id: "01ABC", attributes: { email: "someone-else@example.com" } }] }), {
          status: 200,
        }),
      );
    expect(await listMembership("me@example.com", LIST_ID, account, otherProfile)).toMatchObject({ kind: "failed", status: 200 });
    const notJsonApi: typeof fetch = () => Promise.resolve(new Response("<html>", { status: 200 }));
    expect(await listMembership("me@example.com", LIST_ID, account, notJsonApi)).toMatchObject({ kind: "failed", status: 200 });
  });

  test("429 is throttled with Klaviyo's Retry-After; an outage, an unknown list and a revoked key are failures", async () => {
    klaviyo.setList(LIST_ID);
    klaviyo.throttle({ retryAfterS: 7 });
    expect(await listMembership("jo@example.com", LIST_ID, account)).toMatchObject({ kind: "throttled", retryAfterS: 7 });
    klaviyo.failFor({ requests: 1 });
    expect(await listMembership("jo@example.com", LIST_ID, account)).toMatchObject({ kind: "failed", status: 500 });
    expect(await listMembership("jo@example.com", "NoSuchList", account)).toMatchObject({ kind: "failed", status: 404 });
    klaviyo.revokeKey();
    expect(await listMembership("jo@example.com", LIST_ID, account)).toMatchObject({ kind: "failed", status: 401 });
  });

  test("no answer in time is a failure whose reason holds no address", async () => {
    const hanging: typeof fetch = () => Promise.reject(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    const outcome = await listMembership("jo@example.com", LIST_ID, account, hanging);
    expect(outcome).toEqual({ kind: "failed", status: null, reason: `lists/${LIST_ID}/profiles: no answer within 10000 ms` });
  });

  test("a deletion job takes the person off the list", async () => {
    klaviyo.addToList(LIST_ID, "gone@example.com");
    const response = await fetch(`${klaviyo.apiUrl}/api/data-privacy-deletion-jobs`, {
      method: "POST",
      headers: {
        authorization: `Klaviyo-API-Key ${klaviyo.privateApiKey}`,
        revision: "2026-07-15",
        "content-type": "application/vnd.api+json",
      },
      body: JSON.stringify({
        data: {
          type: "data-privacy-deletion-job",
          attributes: { profile: { data: { type: "profile", attributes: { email: "gone@example.com" } } } },
        },
      }),
    });
    expect(response.status).toBe(202);
    expect(klaviyo.deletions).toMatchObject([{ email: "gone@example.com", phoneNumber: null, profileId: null }]);
    expect(await listMembership("gone@example.com", LIST_ID, account)).toEqual({ kind: "absent" });
  });
});

describe("listOptInProcess", () => {
  test("reads double_opt_in, single_opt_in, and 404 for a list the account does not have", async () => {
    klaviyo.setList("Double1");
    klaviyo.setList("Single2", { optInProcess: "single_opt_in" });
    expect(await listOptInProcess("Double1", account)).toEqual({ kind: "double_opt_in" });
    expect(await listOptInProcess("Single2", account)).toEqual({ kind: "single_opt_in" });
    expect(await listOptInProcess("Missing", account)).toMatchObject({ kind: "failed", status: 404 });
    expect(klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 404 });
  });
});

describe("the delivery's own requests", () => {
  test("still deliver, and an address Klaviyo refuses is refused without the address in the reason", async () => {
    expect(await deliverToKlaviyo(signup("fine@example.com"), account)).toEqual({ kind: "delivered" });
    klaviyo.refuse("bad@example.com");
    const outcome = await deliverToKlaviyo(signup("bad@example.com"), account);
    expect(outcome).toMatchObject({ kind: "refused", status: 400 });
    expect(JSON.stringify(outcome)).not.toContain("bad@example.com");
    expect(klaviyo.profileImports.map((taken) => taken.email)).toEqual(["pending@example.com", "at-once@example.com", "fine@example.com"]);
  });
});
