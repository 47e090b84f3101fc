/**
 * POST /api/signups from the no-JavaScript form (`application/x-www-form-urlencoded`), against the Worker in workerd:
 * a visitor without JavaScript is stored the same way and is sent, with 303 See Other, to the success page or back to
 * the page they came from with the anchor of the message that page carries (`#signup-error-<key>`).
 */
import { beforeAll, expect, it } from "vitest";
import {
  errorsOf,
  nextClientIp,
  postSignup,
  rowsFor,
  startWaitlistService,
  type WaitlistService,
  withinOneRateWindow,
} from "./support/service";

let service: WaitlistService;

beforeAll(() => {
  service = startWaitlistService();
});

let addressNumber = 0;
function newAddress(): string {
  addressNumber += 1;
  return `reader.${addressNumber}@example.com`;
}

/** The form's fields as a browser posts them: every input, the honeypot and the page empty-or-filled. */
function formBody(fields: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({ email: newAddress(), first_name: "Mary", last_name: "Shelley", website: "", page: "/", ...fields });
}

/** Where a 303 sends the browser, as a path with its fragment. */
function redirectTarget(response: Response, service: WaitlistService): string {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location") ?? "", service.origin);
  expect(location.origin).toBe(service.origin);
  return `${location.pathname}${location.search}${location.hash}`;
}

it("stores the signup and sends the visitor to the success page", async () => {
  const body = formBody({ email: ` ${newAddress()} `, first_name: " Mary ", source: "Print flyer" });
  const response = await postSignup(service, body);

  expect(redirectTarget(response, service)).toBe("/success/");
  expect(response.headers.get("cache-control")).toBe("no-store");
  const [row] = await rowsFor(service, body.get("email") ?? "");
  expect(row).toMatchObject({ email: body.get("email")?.trim(), first_name: "Mary", last_name: "Shelley", source: "Print flyer" });
});

it("sends a visitor already on the list to the success page too, keeping one row", async () => {
  const body = formBody();
  await postSignup(service, body);
  expect(redirectTarget(await postSignup(service, body), service)).toBe("/success/");
  expect(await rowsFor(service, body.get("email") ?? "")).toHaveLength(1);
});

it.each([
  ["an empty email", { email: "" }, "emailRequired"],
  ["a whitespace-only first name", { first_name: "  " }, "firstNameRequired"],
  ["an empty last name", { last_name: "" }, "lastNameRequired"],
  ["an address without a domain", { email: "mary@shelley" }, "invalidEmail"],
  ["a disposable address", { email: "mary@yopmail.com" }, "invalidEmail"],
  ["an address over 254 characters", { email: `${"m".repeat(250)}@example.com` }, "invalidEmail"],
  ["a first name over 100 characters", { first_name: "M".repeat(101) }, "subscriptionFailed"],
])("sends %s back to the page with its message's anchor, storing nothing", async (_case, fields, key) => {
  const body = formBody({ page: "/spring/", ...fields });
  const response = await postSignup(service, body);
  expect(redirectTarget(response, service)).toBe(`/spring/#signup-error-${key}`);
  const email = body.get("email") ?? "";
  if (email) expect(await rowsFor(service, email)).toEqual([]);
});

it("keeps the page's query (a campaign's UTM values) on the way back", async () => {
  const response = await postSignup(service, formBody({ email: "", page: "/spring/?utm_source=flyer" }));
  expect(redirectTarget(response, service)).toBe("/spring/?utm_source=flyer#signup-error-emailRequired");
});

it.each([
  ["another site", "https://evil.example/"],
  ["a protocol-relative address", "//evil.example/"],
  ["a backslash trick", "/\\evil.example/"],
  ["a script URL", "javascript:alert(1)"],
  ["nothing", ""],
])("sends the visitor home instead of to %s", async (_case, page) => {
  const response = await postSignup(service, formBody({ email: "", page }));
  expect(redirectTarget(response, service)).toBe("/#signup-error-emailRequired");
});

it("answers a filled honeypot with the success page and stores nothing", async () => {
  const body = formBody({ website: "http://spam.example" });
  expect(redirectTarget(await postSignup(service, body), service)).toBe("/success/");
  expect(await rowsFor(service, body.get("email") ?? "")).toEqual([]);
});

it("sends a throttled visitor back with the failure message", async () => {
  const ip = nextClientIp();
  await withinOneRateWindow();
  for (let count = 0; count < 60; count += 1) await postSignup(service, formBody(), { ip });
  const body = formBody({ page: "/spring/" });
  expect(redirectTarget(await postSignup(service, body, { ip }), service)).toBe("/spring/#signup-error-subscriptionFailed");
  expect(await rowsFor(service, body.get("email") ?? "")).toEqual([]);
});

it("answers another site's form with 403, not a redirect, and stores nothing", async () => {
  const body = formBody();
  const response = await postSignup(service, body, { origin: "https://evil.example" });
  expect(response.status).toBe(403);
  expect((await errorsOf(response))[0].code).toBe("origin_not_allowed");
  expect(await rowsFor(service, body.get("email") ?? "")).toEqual([]);
});
