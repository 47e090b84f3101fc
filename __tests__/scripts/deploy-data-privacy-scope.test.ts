/**
 * `npm run deploy`'s check of the Klaviyo key's Data Privacy scope (scripts/service/data-privacy-scope.ts) against the
 * loopback Klaviyo stand-in, which answers a key without an operation's scope 403 as Klaviyo does: nothing is built
 * or deployed.
 */
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../scripts/lib/klaviyo-stand-in";
import { dataPrivacyScopeProblem, SCOPE_CHECK_ADDRESS } from "../../scripts/service/data-privacy-scope";

/** A custom key with every scope the service uses but Data Privacy's. */
const WITHOUT_DATA_PRIVACY = ["lists:read", "lists:write", "profiles:read", "profiles:write", "subscriptions:write", "events:write"];

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

test("refuses a key without the data-privacy:write scope, saying what an erase would leave and how to fix it", async () => {
  klaviyo.limitScopes(WITHOUT_DATA_PRIVACY);
  const problem = await dataPrivacyScopeProblem(environment);
  expect(problem).toContain("lacks the data-privacy:write scope");
  expect(problem).toContain("403 permission_denied");
  expect(problem).toContain("every erase would leave the person's profile in Klaviyo");
  expect(problem).toContain("Create Private API Key, with Data Privacy full access");
  expect(klaviyo.received.at(-1)).toMatchObject({ operation: "request_profile_deletion", status: 403 });
  expect(klaviyo.deletions).toEqual([]);
});

test("accepts a key Klaviyo takes a deletion job from, asking only for the reserved address's profiles", async () => {
  const before = klaviyo.deletions.length;
  expect(await dataPrivacyScopeProblem(environment)).toBeNull();
  expect(klaviyo.received.at(-1)).toMatchObject({ operation: "request_profile_deletion", status: 202, emails: [SCOPE_CHECK_ADDRESS] });
  expect(klaviyo.deletions.slice(before)).toEqual([
    { email: SCOPE_CHECK_ADDRESS, phoneNumber: null, profileId: null, at: expect.any(Number) },
  ]);
  expect(SCOPE_CHECK_ADDRESS).toMatch(/@example\.com$/);
});

test("refuses without the key in the shell, before asking Klaviyo", async () => {
  const asked = klaviyo.received.length;
  const problem = await dataPrivacyScopeProblem({ KLAVIYO_API_URL: klaviyo.apiUrl, KLAVIYO_PRIVATE_API_KEY: " " });
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY is not set in this shell");
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY=pk_… npm run deploy");
  expect(klaviyo.received.length).toBe(asked);
});

test("refuses a key Klaviyo does not take, a throttled check and an outage, without deploying", async () => {
  klaviyo.revokeKey();
  expect(await dataPrivacyScopeProblem(environment)).toContain("Klaviyo refused the private API key");
  klaviyo.reset();
  klaviyo.throttle({ retryAfterS: 7 });
  expect(await dataPrivacyScopeProblem(environment)).toContain("Try again in 7 s");
  klaviyo.failFor({ requests: 1 });
  expect(await dataPrivacyScopeProblem(environment)).toContain("nothing was deployed");
});
