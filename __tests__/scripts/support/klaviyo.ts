/**
 * The Klaviyo stand-in as the deploy checks' tests use it: one per test file, its scripted faults forgotten after each
 * test (which must leave it no answer its description forbids), and the shell variables that point a check at it.
 */
import { startKlaviyoStandIn, type KlaviyoStandIn } from "../../../scripts/lib/klaviyo-stand-in";

/** The file's stand-in and the shell a deploy check reads, once beforeAll has run. */
export interface DeployKlaviyo {
  klaviyo: KlaviyoStandIn;
  environment: { KLAVIYO_PRIVATE_API_KEY: string; KLAVIYO_API_URL: string };
}

/** Start the stand-in for this test file (Jest's hooks): read its members inside tests, not at import. */
export function withKlaviyoStandIn(): DeployKlaviyo {
  const shared = {} as DeployKlaviyo;
  beforeAll(async () => {
    shared.klaviyo = await startKlaviyoStandIn();
    shared.environment = { KLAVIYO_PRIVATE_API_KEY: shared.klaviyo.privateApiKey, KLAVIYO_API_URL: shared.klaviyo.apiUrl };
  });
  afterEach(() => {
    shared.klaviyo.reset();
    expect(shared.klaviyo.problems).toEqual([]);
  });
  afterAll(() => shared.klaviyo.close());
  return shared;
}
