/**
 * `npm run deploy`'s check of the Klaviyo key's Data Privacy scope (scripts/service/data-privacy-scope.ts) against the
 * loopback Klaviyo stand-in, which answers a key without an operation's scope 403 as Klaviyo does: nothing is built
 * or deployed.
 */
import { dataPrivacyScopeProblem, SCOPE_CHECK_ADDRESS } from "../../scripts/service/data-privacy-scope";
import { withKlaviyoStandIn } from "./support/klaviyo";

/** A custom key with every scope the service uses but Data Privacy's. */
const WITHOUT_DATA_PRIVACY = ["lists:read", "lists:write", "profiles:read", "profiles:write", "subscriptions:write", "events:write"];

const stand = withKlaviyoStandIn();

test("refuses a key without the data-privacy:write scope, saying what an erase would leave and how to fix it", async () => {
  stand.klaviyo.limitScopes(WITHOUT_DATA_PRIVACY);
  const problem = await dataPrivacyScopeProblem(stand.environment);
  expect(problem).toContain("lacks the data-privacy:write scope");
  expect(problem).toContain("403 permission_denied");
  expect(problem).toContain("every erase would leave the person's profile in Klaviyo");
  expect(problem).toContain("Create Private API Key, with Data Privacy full access");
  expect(stand.klaviyo.received.at(-1)).toMatchObject({ operation: "request_profile_deletion", status: 403 });
  expect(stand.klaviyo.deletions).toEqual([]);
});

test("accepts a key Klaviyo takes a deletion job from, asking only for the reserved address's profiles", async () => {
  const before = stand.klaviyo.deletions.length;
  expect(await dataPrivacyScopeProblem(stand.environment)).toBeNull();
  expect(stand.klaviyo.received.at(-1)).toMatchObject({
    operation: "request_profile_deletion",
    status: 202,
    emails: [SCOPE_CHECK_ADDRESS],
  });
  expect(stand.klaviyo.deletions.slice(before)).toEqual([
    { email: SCOPE_CHECK_ADDRESS, phoneNumber: null, profileId: null, at: expect.any(Number) },
  ]);
  expect(SCOPE_CHECK_ADDRESS).toMatch(/@example\.com$/);
});

test("refuses without the key in the shell, before asking Klaviyo", async () => {
  const asked = stand.klaviyo.received.length;
  const problem = await dataPrivacyScopeProblem({ KLAVIYO_API_URL: stand.klaviyo.apiUrl, KLAVIYO_PRIVATE_API_KEY: " " });
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY is not set in this shell");
  expect(problem).toContain("KLAVIYO_PRIVATE_API_KEY=pk_… npm run deploy");
  expect(stand.klaviyo.received.length).toBe(asked);
});

test("refuses a key Klaviyo does not take, a throttled check and an outage, without deploying", async () => {
  stand.klaviyo.revokeKey();
  expect(await dataPrivacyScopeProblem(stand.environment)).toContain("Klaviyo refused the private API key");
  stand.klaviyo.reset();
  stand.klaviyo.throttle({ retryAfterS: 7 });
  expect(await dataPrivacyScopeProblem(stand.environment)).toContain("Try again in 7 s");
  stand.klaviyo.failFor({ requests: 1 });
  expect(await dataPrivacyScopeProblem(stand.environment)).toContain("nothing was deployed");
});
