/**
 * The provider settings a build uses (gatsby-node → effectiveProvider): each transport's
 * own Klaviyo address when the content names none, and the SIGNUP_ENDPOINT_URL /
 * SIGNUP_NOSCRIPT_FORM_URL overrides, which must be https (plain http only on loopback).
 * @jest-environment node
 */
import { effectiveProvider } from "../../src/content/derive";
import type { SiteContent } from "../../src/content/schema";
import { CLIENT_API_ENDPOINT_URL, LEGACY_FORM_ENDPOINT_URL, NO_SCRIPT_FORM_URL } from "../../src/signup/endpoints";

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
