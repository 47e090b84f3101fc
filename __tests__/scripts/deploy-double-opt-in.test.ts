/**
 * `npm run deploy`'s double opt-in check (scripts/service/double-opt-in.ts) against the loopback Klaviyo stand-in,
 * which answers `GET /api/lists/{id}` as Klaviyo's API reference says: nothing is built or deployed.
 */
import { doubleOptInProblem } from "../../scripts/service/double-opt-in";
import { withKlaviyoStandIn } from "./support/klaviyo";

const COUNTED_AFTER_CONFIRMATION = {
  listId: "WtL1st",
  referrals: { enabled: true, placesPerReferral: 5, entriesPerReferral: 1, countAfter: "confirmation" as const },
};

const stand = withKlaviyoStandIn();

test("refuses a single opt-in list, saying why and where Klaviyo switches on double opt-in", async () => {
  stand.klaviyo.setList("WtL1st", { optInProcess: "single_opt_in" });
  const problem = await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, stand.environment);
  expect(problem).toContain("Klaviyo list WtL1st (provider.listId) is single opt-in");
  expect(problem).toContain("count every referral at signup");
  expect(problem).toContain("List settings → Opt-in process → Double opt-in");
  expect(stand.klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 200 });
});

test("accepts a double opt-in list", async () => {
  stand.klaviyo.setList("WtL1st", { optInProcess: "double_opt_in" });
  expect(await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, stand.environment)).toBeNull();
  expect(stand.klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 200 });
});

test("refuses a list the key's account does not have, naming the list id to check", async () => {
  const problem = await doubleOptInProblem({ ...COUNTED_AFTER_CONFIRMATION, listId: "Gone99" }, stand.environment);
  expect(problem).toContain("Klaviyo list Gone99 (provider.listId) does not exist in the Klaviyo account of this private API key");
  expect(stand.klaviyo.received.at(-1)).toMatchObject({ operation: "get_list", status: 404 });
});

test("refuses without the private API key in the shell, before asking Klaviyo", async () => {
  const asked = stand.klaviyo.received.length;
  const problem = await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, {
    KLAVIYO_API_URL: stand.klaviyo.apiUrl,
    KLAVIYO_PRIVATE_API_KEY: " ",
  });
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY is not set in this shell");
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY=pk_… npm run deploy");
  expect(stand.klaviyo.received.length).toBe(asked);
});

test("refuses a key Klaviyo does not take, and an outage, without deploying", async () => {
  stand.klaviyo.setList("WtL1st");
  stand.klaviyo.revokeKey();
  expect(await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, stand.environment)).toContain("Klaviyo refused the private API key");
  stand.klaviyo.reset();
  stand.klaviyo.failFor({ requests: 1 });
  expect(await doubleOptInProblem(COUNTED_AFTER_CONFIRMATION, stand.environment)).toContain("nothing was deployed");
});

test("does not ask Klaviyo when no referral waits for a confirmation", async () => {
  const asked = stand.klaviyo.received.length;
  const atSignup = { ...COUNTED_AFTER_CONFIRMATION, referrals: { ...COUNTED_AFTER_CONFIRMATION.referrals, countAfter: "signup" as const } };
  const off = { ...COUNTED_AFTER_CONFIRMATION, referrals: { ...COUNTED_AFTER_CONFIRMATION.referrals, enabled: false } };
  expect(await doubleOptInProblem(atSignup, {})).toBeNull();
  expect(await doubleOptInProblem(off, {})).toBeNull();
  expect(stand.klaviyo.received.length).toBe(asked);
});
