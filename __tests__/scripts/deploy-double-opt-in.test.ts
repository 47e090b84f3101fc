/**
 * `npm run deploy`'s double opt-in check (scripts/service/double-opt-in.ts) against the loopback Klaviyo stand-in,
 * which answers `GET /api/lists/{id}` as Klaviyo's API reference says: nothing is built or deployed.
 */
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import { doubleOptInProblem } from "../../scripts/service/double-opt-in";

const COUNTED_AFTER_CONFIRMATION = {
  listId: "WtL1st",
  referrals: { enabled: true, placesPerReferral: 5, entriesPerReferral: 1, countAfter: "confirmation" as const },
};

let klaviyo: KlaviyoStandIn;
let environment: { KLAVIYO_PRIVATE_API_KEY: string; KLAVIYO_API_URL: string };

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  environment = { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl };
});

afterEach(() => {
  klaviyo.reset();
  expect(klaviyo.problems).toEqual([]);
});

afterAll(() => klaviyo.close());

test("refuses a single opt-in list, saying why and where Klaviyo switches on double opt-in", async () => {
  klaviyo.setList("WtL1st", { optInProcess: "single_opt_in" });
  const problem = await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, environment);
  expect(problem).toContain("Klaviyo list WtL1st (provider.listId) is single opt-in");
  expect(problem).toContain("count every referral at signup");
  expect(problem).toContain("List settings → Opt-in process → Double opt-in");
  expect(klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 200 });
});

test("accepts a double opt-in list", async () => {
  klaviyo.setList("WtL1st", { optInProcess: "double_opt_in" });
  expect(await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, environment)).toBeNull();
  expect(klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 200 });
});

test("refuses a list the key's account does not have, naming the list id to check", async () => {
  const problem = await doubleOptInProblem({ ...COUNTED_AFTER_CONFIRMATION, listId: "Gone99" }, environment);
  expect(problem).toContain("Klaviyo list Gone99 (provider.listId) does not exist in the Klaviyo account of this private API key");
  expect(klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 404 });
});

test("refuses without the private API key in the shell, before asking Klaviyo", async () => {
  const asked = klaviyo.received.length;
  const problem = await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, { KLAVIYO_API_URL: klaviyo.apiUrl, KLAVIYO_PRIVATE_API_KEY: " " });
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY is not set in this shell");
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY=pk_… npm run deploy");
  expect(klaviyo.received.length).toBe(asked);
});

test("refuses a key Klaviyo does not take, and an outage, without deploying", async () => {
  klaviyo.setList("WtL1st");
  klaviyo.revokeKey();
  expect(await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, environment)).toContain("Klaviyo refused the private API key");
  klaviyo.reset();
  klaviyo.failFor({ requests: 1 });
  expect(await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, environment)).toContain("nothing was deployed");
});

test("does not ask Klaviyo when no referral waits for a confirmation", async () => {
  const asked = klaviyo.received.length;
  const atSignup = { ...COUNTED_AFTER_CONFIRMATION, referrals: { ...COUNTED_AFTER_CONFIRMATION.referrals, countAfter: "signup" as const } };
  const off = { ...COUNTED_AFTER_CONFIRMATION, referrals: { ...COUNTED_AFTER_CONFIRMATION.referrals, enabled: false } };
  expect(await doubleOptInProblem(atSignup, {})).toBeNull();
  expect(await doubleOptInProblem(off, {})).toBeNull();
  expect(klaviyo.received.length).toBe(asked);
});
