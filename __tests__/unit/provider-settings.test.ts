/**
 * The provider settings a build uses (effectiveProvider): defaults, the URL overrides (https, or http on
 * loopback only), and when a build is a demo or shows the Turnstile widget.
 * @jest-environment node
 */
import { deriveFields, effectiveProvider, isDemoBuild, turnstileScriptOverride } from "../../src/content/derive";
import type { SiteContent } from "../../src/content/schema";
import { SIGNUPS_ENDPOINT } from "../../shared/contract";
import { CLIENT_API_ENDPOINT_URL, LEGACY_FORM_ENDPOINT_URL, NO_SCRIPT_FORM_URL } from "../../src/signup/endpoints";
import { loadTestContent } from "../support/content";

const PROVIDER: SiteContent["provider"] = {
  transport: "client-api",
  noScriptFormUrl: NO_SCRIPT_FORM_URL,
  publicApiKey: "Pk7Fnd",
  listId: "WtL1st",
  demoMode: false,
};

it("uses each transport's own Klaviyo address when the content names no endpoint", () => {
  expect(effectiveProvider(PROVIDER, {})).toMatchObject({ endpointUrl: CLIENT_API_ENDPOINT_URL, noScriptFormUrl: NO_SCRIPT_FORM_URL });
  expect(effectiveProvider({ ...PROVIDER, transport: "legacy-form" }, {})).toMatchObject({
    endpointUrl: LEGACY_FORM_ENDPOINT_URL,
    noScriptFormUrl: NO_SCRIPT_FORM_URL,
  });
});

it("keeps an endpoint the content names", () => {
  expect(effectiveProvider({ ...PROVIDER, endpointUrl: "https://staging.example/client/subscriptions/" }, {}).endpointUrl).toBe(
    "https://staging.example/client/subscriptions/",
  );
});

it.each(["client-api", "legacy-form"] as const)(
  "lets SIGNUP_ENDPOINT_URL replace the %s endpoint, and SIGNUP_NOSCRIPT_FORM_URL the no-JavaScript form's",
  (transport) => {
    const env = { SIGNUP_ENDPOINT_URL: "http://127.0.0.1:4000/x", SIGNUP_NOSCRIPT_FORM_URL: "http://localhost:4000/y" };
    expect(effectiveProvider({ ...PROVIDER, transport }, env)).toMatchObject({
      transport,
      endpointUrl: "http://127.0.0.1:4000/x",
      noScriptFormUrl: "http://localhost:4000/y",
    });
  },
);

it.each([
  [
    "SIGNUP_ENDPOINT_URL",
    "http://staging.example/x",
    'SIGNUP_ENDPOINT_URL="http://staging.example/x" must use https:// (plain http:// is only allowed for 127.0.0.1 or localhost).',
  ],
  [
    "SIGNUP_NOSCRIPT_FORM_URL",
    "not a url",
    'SIGNUP_NOSCRIPT_FORM_URL="not a url" is not a complete URL (expected e.g. https://staging.example.com/subscribe).',
  ],
])("refuses %s=%j with a plain explanation", (name, value, message) => {
  expect(() => effectiveProvider(PROVIDER, { [name]: value })).toThrow(message);
});

describe("the waitlist-api transport", () => {
  const SERVICE: SiteContent["provider"] = { transport: "waitlist-api", listId: "WtL1st", demoMode: false };

  it("sends to /api/signups on the site's own origin, and the no-JavaScript form posts there too", () => {
    expect(effectiveProvider(SERVICE, {})).toMatchObject({ endpointUrl: SIGNUPS_ENDPOINT, noScriptFormUrl: SIGNUPS_ENDPOINT });
  });

  it("lets SIGNUP_ENDPOINT_URL and SIGNUP_NOSCRIPT_FORM_URL still replace them (tests, staging)", () => {
    const env = { SIGNUP_ENDPOINT_URL: "http://127.0.0.1:4000/api/signups", SIGNUP_NOSCRIPT_FORM_URL: "http://127.0.0.1:4000/api/signups" };
    expect(effectiveProvider(SERVICE, env)).toMatchObject({
      endpointUrl: "http://127.0.0.1:4000/api/signups",
      noScriptFormUrl: "http://127.0.0.1:4000/api/signups",
    });
  });

  it("is a real build without a public API key (the service keeps its private key), a demo without a list id", () => {
    expect(isDemoBuild(SERVICE)).toBe(false);
    expect(isDemoBuild({ ...SERVICE, listId: undefined })).toBe(true);
    expect(isDemoBuild({ ...SERVICE, demoMode: true })).toBe(true);
    expect(isDemoBuild({ ...SERVICE, transport: "client-api" })).toBe(true);
  });
});

describe("the Turnstile script", () => {
  const content = loadTestContent();
  const site = (provider: Partial<SiteContent["provider"]>) =>
    ({ ...content, provider: { ...content.provider, ...provider } }) as unknown as SiteContent;
  const withKey = site({ transport: "waitlist-api", turnstileSiteKey: "1x00000000000000000000AA" });

  it("is Cloudflare's, explicitly rendered, with waitlist-api and a site key", () => {
    expect(deriveFields(withKey, 0, "/", {}).turnstileScriptUrl).toBe(
      "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    );
  });

  it("is none without a site key, and none in a demo build", () => {
    expect(deriveFields(site({ transport: "waitlist-api" }), 0, "/", {}).turnstileScriptUrl).toBeNull();
    expect(
      deriveFields(site({ transport: "waitlist-api", turnstileSiteKey: "1x00000000000000000000AA", demoMode: true }), 0, "/", {})
        .turnstileScriptUrl,
    ).toBeNull();
  });

  it("can be replaced by TURNSTILE_SCRIPT_URL (a loopback stand-in in tests), which must be https but on loopback", () => {
    const env = { TURNSTILE_SCRIPT_URL: "http://127.0.0.1:4000/turnstile/v0/api.js?render=explicit" };
    expect(deriveFields(withKey, 0, "/", env).turnstileScriptUrl).toBe("http://127.0.0.1:4000/turnstile/v0/api.js?render=explicit");
    expect(() => turnstileScriptOverride({ TURNSTILE_SCRIPT_URL: "http://cdn.example/api.js" })).toThrow(
      'TURNSTILE_SCRIPT_URL="http://cdn.example/api.js" must use https:// (plain http:// is only allowed for 127.0.0.1 or localhost).',
    );
  });
});
