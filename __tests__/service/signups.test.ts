/**
 * POST /api/signups with JSON, as the page's script sends it, against the Worker in workerd (the Workers pool) and its
 * local D1: every answer of the HTTP contract, the bad inputs a visitor or a bot can send, and what ends up stored.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  errorsOf,
  nextClientIp,
  postSignup,
  rowCount,
  rowsFor,
  startWaitlistService,
  TEST_SETTINGS,
  type WaitlistService,
  withinOneRateWindow,
} from "./support/service";

let service: WaitlistService;

beforeAll(() => {
  service = startWaitlistService();
});

let addressNumber = 0;
/** An address no other test uses. */
function newAddress(label = "visitor"): string {
  addressNumber += 1;
  return `${label}.${addressNumber}@example.com`;
}

/** A complete, valid signup body for a fresh address. */
function signup(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: newAddress(), firstName: "Ada", lastName: "Lovelace", ...overrides };
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("a new signup", () => {
  it("is stored, trimmed, before the 202 answer, which says only that it was accepted", async () => {
    const email = newAddress("Grace.Hopper");
    const response = await postSignup(service, {
      email: `  ${email} `,
      firstName: " Grace ",
      lastName: "\tHopper\n",
      properties: { utm_source: "newsletter", utm_campaign: "spring" },
    });

    expect(response.status).toBe(202);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    // No standing, no id: the person's place and links reach only their inbox.
    expect(await response.json()).toEqual({ accepted: true });
    const rows = await rowsFor(service, email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: expect.stringMatching(UUID) as unknown,
      created_at: expect.stringMatching(ISO_UTC) as unknown,
      email,
      email_key: email.toLowerCase(),
      first_name: "Grace",
      last_name: "Hopper",
      source: TEST_SETTINGS.source,
    });
    expect(JSON.parse(rows[0].properties)).toEqual({ utm_source: "newsletter", utm_campaign: "spring" });
  });

  it("keeps the custom source the request names, else the build's", async () => {
    const named = newAddress();
    expect((await postSignup(service, signup({ email: named, source: "Spring campaign" }))).status).toBe(202);
    expect((await rowsFor(service, named))[0].source).toBe("Spring campaign");
  });

  it("stores the client IP only as a salted SHA-256 hash", async () => {
    const email = newAddress();
    const ip = "203.0.113.77";
    expect((await postSignup(service, signup({ email }), { ip })).status).toBe(202);
    const [row] = await rowsFor(service, email);
    expect(row.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(ip);
  });

  it("ignores a referral code (ref) that belongs to nobody: stored, with no referrer", async () => {
    const email = newAddress();
    expect((await postSignup(service, signup({ email, ref: "AbCd2345" }))).status).toBe(202);
    const rows = await service.query<{ referred_by: string | null }>("SELECT referred_by FROM signups WHERE email = ?1", email);
    expect(rows).toEqual([{ referred_by: null }]);
  });

  it("stores markup and SQL in names as the text typed, and the table survives", async () => {
    const email = newAddress();
    const firstName = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const lastName = "Robert'); DROP TABLE signups;--";
    const before = await rowCount(service);

    expect((await postSignup(service, { email, firstName, lastName })).status).toBe(202);

    const [row] = await rowsFor(service, email);
    expect(row).toMatchObject({ first_name: firstName, last_name: lastName });
    expect(await rowCount(service)).toBe(before + 1);
  });
});

describe("the same person again", () => {
  it("gets the newcomer's very answer, and keeps one row, however the address is spelled", async () => {
    const local = `ada.byron${Date.now()}`;
    const first = await postSignup(service, signup({ email: `${local}@gmail.com`, firstName: "Ada" }));
    expect(first.status).toBe(202);
    const created = await first.text();

    for (const spelling of [`${local}@gmail.com`, `${local.toUpperCase()}@GMAIL.COM`, `${local.replace(".", "")}+news@googlemail.com`]) {
      const again = await postSignup(service, signup({ email: spelling, firstName: "Augusta" }));
      expect(again.status).toBe(202);
      // Byte for byte a newcomer's: a stranger learns nothing.
      expect(await again.text()).toBe(created);
    }
    const rows = await service.query<{ first_name: string }>(
      "SELECT first_name FROM signups WHERE email_key = ?1",
      `${local.replace(".", "")}@gmail.com`,
    );
    expect(rows).toEqual([{ first_name: "Ada" }]);
  });

  it("is one row when ten identical signups arrive at once", async () => {
    const email = newAddress("concurrent");
    const answers = await Promise.all(Array.from({ length: 10 }, () => postSignup(service, signup({ email }))));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 202));
    expect(await rowsFor(service, email)).toHaveLength(1);
  });

  it("keeps signup order: each new person gets the next seq", async () => {
    const [a, b] = [newAddress(), newAddress()];
    await postSignup(service, signup({ email: a }));
    await postSignup(service, signup({ email: b }));
    const [[rowA], [rowB]] = await Promise.all([rowsFor(service, a), rowsFor(service, b)]);
    expect(rowB.seq).toBe(rowA.seq + 1);
  });
});

describe("bad input is refused with 400, a code and a pointer, and nothing is stored", () => {
  it.each([
    ["an empty email", { email: "" }, "email_required", "/email"],
    ["a whitespace-only email", { email: "  \t " }, "email_required", "/email"],
    ["a missing email", { email: undefined }, "email_required", "/email"],
    ["an empty first name", { firstName: "" }, "first_name_required", "/firstName"],
    ["a whitespace-only first name", { firstName: "   " }, "first_name_required", "/firstName"],
    ["a whitespace-only last name", { lastName: " \n " }, "last_name_required", "/lastName"],
    ["an address without a domain dot", { email: "ada@localhost" }, "invalid_email", "/email"],
    ["an address with two @", { email: "a@b@example.com" }, "invalid_email", "/email"],
    ["a first name over 100 characters", { firstName: "A".repeat(101) }, "too_long", "/firstName"],
    ["a last name over 100 characters", { lastName: "L".repeat(101) }, "too_long", "/lastName"],
    ["an address over 254 characters", { email: `${"a".repeat(250)}@example.com` }, "too_long", "/email"],
    ["an email that is a number", { email: 42 }, "invalid_type", "/email"],
    ["a first name that is a list", { firstName: ["Ada"] }, "invalid_type", "/firstName"],
    ["a source that is an object", { source: { name: "x" } }, "invalid_type", "/source"],
    ["a source over 100 characters", { source: "s".repeat(101) }, "too_long", "/source"],
    ["properties that are text", { properties: "utm_source=x" }, "invalid_type", "/properties"],
    ["a property value that is a number", { properties: { utm_term: 3 } }, "invalid_type", "/properties/utm_term"],
    [
      "more than 20 properties",
      { properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, "v"])) },
      "too_many",
      "/properties",
    ],
    ["a property name over 40 characters", { properties: { ["k".repeat(41)]: "v" } }, "too_long", `/properties/${"k".repeat(41)}`],
    [
      "a property value over 255 characters (the page's own cut)",
      { properties: { utm_content: "v".repeat(256) } },
      "too_long",
      "/properties/utm_content",
    ],
    [
      "a property name the page never sends (escaped in the pointer)",
      { properties: { "utm/content": "v" } },
      "unknown_property",
      "/properties/utm~1content",
    ],
    ["a disposable address", { email: "ada@mailinator.com" }, "disposable_email", "/email"],
    ["an address on a disposable domain's subdomain", { email: "ada@inbox.33mail.com" }, "disposable_email", "/email"],
  ])("%s", async (_case, overrides, code, pointer) => {
    const body = signup(overrides);
    const response = await postSignup(service, body);

    expect(response.status).toBe(400);
    expect(await errorsOf(response)).toEqual([{ status: "400", code, detail: expect.any(String) as unknown, source: { pointer } }]);
    if (typeof body.email === "string" && body.email.trim()) expect(await rowsFor(service, body.email)).toEqual([]);
  });

  it("refuses empty fields in the shared rules' order: the email first", async () => {
    const response = await postSignup(service, { email: "", firstName: "", lastName: "" });
    expect((await errorsOf(response)).map((error) => error.code)).toEqual(["email_required"]);
  });

  it.each([
    ["text that is not JSON", "{email: ada@example.com"],
    ["an empty body", ""],
    ["a JSON array", "[]"],
    ["a JSON string", '"ada@example.com"'],
    ["JSON null", "null"],
  ])("answers invalid_json for %s", async (_case, body) => {
    const before = await rowCount(service);
    const response = await postSignup(service, body);
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0].code).toBe("invalid_json");
    expect(await rowCount(service)).toBe(before);
  });
});

describe("the size limit (8 KB)", () => {
  it("answers 413 for a 10 KB name sent with its Content-Length, and stores nothing", async () => {
    const body = signup({ firstName: "N".repeat(10 * 1024) });
    const response = await postSignup(service, body);
    expect(response.status).toBe(413);
    expect((await errorsOf(response))[0].code).toBe("body_too_large");
    expect(await rowsFor(service, body.email as string)).toEqual([]);
  });

  it("answers 413 for a body streamed without a Content-Length once it passes 8192 bytes", async () => {
    const email = newAddress();
    const json = JSON.stringify({ email, firstName: "Ada", lastName: "L".repeat(9_000) });
    const chunks = [json.slice(0, 4_000), json.slice(4_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    const response = await service.fetch(`${service.origin}/api/signups`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.origin, "cf-connecting-ip": nextClientIp() },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await rowsFor(service, email)).toEqual([]);
  });

  it("takes a body of exactly 8192 bytes", async () => {
    const email = newAddress();
    const base = JSON.stringify({ email, firstName: "Ada", lastName: "Lovelace", properties: { utm_content: "" } });
    const padding = 8_192 - new TextEncoder().encode(base).length;
    // Spaces are insignificant in JSON: the body grows to the limit without touching a value's bound.
    const body = base.replace('"utm_content":""', `"utm_content":""${" ".repeat(padding)}`);
    expect(new TextEncoder().encode(body).length).toBe(8_192);
    expect((await postSignup(service, body)).status).toBe(202);
  });
});

describe("the honeypot", () => {
  it("answers a filled `website` with a real signup's very answer, and stores nothing", async () => {
    const body = signup({ website: "https://spam.example" });
    const response = await postSignup(service, body);
    expect(response.status).toBe(202);
    const real = await postSignup(service, signup());
    expect(await response.text()).toBe(await real.text());
    expect(await rowsFor(service, body.email as string)).toEqual([]);
  });

  it("lets an empty `website` through", async () => {
    expect((await postSignup(service, signup({ website: "" }))).status).toBe(202);
  });
});

describe("who may call", () => {
  it("refuses another site's Origin with 403 and stores nothing", async () => {
    const body = signup();
    const response = await postSignup(service, body, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await errorsOf(response))[0].code).toBe("origin_not_allowed");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(await rowsFor(service, body.email as string)).toEqual([]);
  });

  it("refuses Origin: null (a sandboxed or privacy-stripped page)", async () => {
    expect((await postSignup(service, signup(), { origin: "null" })).status).toBe(403);
  });

  it("refuses a request without Origin that the browser marks cross-site", async () => {
    expect((await postSignup(service, signup(), { origin: null, headers: { "sec-fetch-site": "cross-site" } })).status).toBe(403);
  });

  it("takes a request with neither Origin nor Sec-Fetch-Site (a client outside a browser)", async () => {
    expect((await postSignup(service, signup(), { origin: null })).status).toBe(202);
  });
});

describe("methods, content types and paths", () => {
  it.each(["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])("answers %s with 405 and Allow: POST", async (method) => {
    const response = await postSignup(service, signup(), { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect((await errorsOf(response))[0].code).toBe("method_not_allowed");
  });

  it.each([["text/plain"], ["multipart/form-data; boundary=x"], ["application/xml"], [null]])(
    "answers content type %s with 415",
    async (contentType) => {
      const body = signup();
      const response = await postSignup(service, JSON.stringify(body), { contentType });
      expect(response.status).toBe(415);
      expect((await errorsOf(response))[0].code).toBe("unsupported_media_type");
      expect(await rowsFor(service, body.email as string)).toEqual([]);
    },
  );

  it("takes JSON with a charset parameter", async () => {
    expect((await postSignup(service, signup(), { contentType: "application/json; charset=UTF-8" })).status).toBe(202);
  });

  it("answers an unknown /api/ path with a JSON:API 404", async () => {
    const response = await service.fetch(`${service.origin}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect((await errorsOf(response))[0].code).toBe("not_found");
  });

  it("marks every answer cache-control: no-store and sends no CORS headers", async () => {
    const answers = [
      await postSignup(service, signup()),
      await postSignup(service, signup({ email: "" })),
      await postSignup(service, signup(), { method: "GET" }),
      await postSignup(service, signup(), { contentType: "text/plain" }),
      await postSignup(service, signup(), { origin: "https://evil.example" }),
      await service.fetch(`${service.origin}/api/unknown`),
    ];
    for (const answer of answers) {
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    }
  });
});

describe("the rate limit", () => {
  it("answers the 61st signup within a minute from one client with 429 and Retry-After, and other clients go on", async () => {
    const ip = nextClientIp();
    await withinOneRateWindow();
    for (let count = 1; count <= 60; count += 1) expect((await postSignup(service, signup(), { ip })).status).toBe(202);

    const body = signup();
    const throttled = await postSignup(service, body, { ip });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe("60");
    expect((await errorsOf(throttled))[0].code).toBe("rate_limited");
    expect(await rowsFor(service, body.email as string)).toEqual([]);

    expect((await postSignup(service, signup(), { ip: nextClientIp() })).status).toBe(202);
  });
});

describe("the log", () => {
  it("holds no address or name of any signup made above", async () => {
    const people = await service.query<{ email: string; first_name: string; last_name: string }>(
      "SELECT email, first_name, last_name FROM signups",
    );
    expect(people.length).toBeGreaterThan(10);
    const log = service.output();
    expect(log).toContain('"event":"signup_stored"');
    for (const person of people) {
      expect(log).not.toContain(person.email);
      expect(log).not.toContain(person.last_name);
    }
  });
});
