/**
 * One person per inbox, and names that are only names, against the Worker in workerd (the Workers pool), its D1 and
 * the loopback Klaviyo stand-in: every spelling of one inbox is one row, an address with no inbox and a name holding
 * a link or a hidden character are refused before anything is stored or sent. Each test is named after the attack.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONFIRMATION_WEBHOOK_PATH } from "../../shared/api/hooks";
import { WEBHOOK_BODY_TEMPLATE, WEBHOOK_EMAIL_VARIABLE } from "../../worker/src/hooks/klaviyo-webhook";
import { emailKey } from "../../worker/src/signups/email-key";
import { errorsOf, postSignup, rowCount, startWaitlistService, TEST_SETTINGS, type WaitlistService } from "./support/service";
import { startKlaviyoStandIn, type KlaviyoStandInClient } from "./support/stand-ins";

const WEBHOOK_SECRET = "test-webhook-secret-0123456789abcdef";

let klaviyo: KlaviyoStandInClient;
let service: WaitlistService;

beforeAll(async () => {
  klaviyo = await startKlaviyoStandIn();
  service = startWaitlistService({ vars: { KLAVIYO_PRIVATE_API_KEY: klaviyo.privateApiKey, KLAVIYO_API_URL: klaviyo.apiUrl } });
});

afterEach(async () => {
  // Every answer the stand-in gave is one Klaviyo's description allows.
  expect((await klaviyo.records()).problems).toEqual([]);
});

afterAll(() => klaviyo?.close());

let personNumber = 0;
/** A username no other test uses. */
function newName(label: string): string {
  personNumber += 1;
  return `${label}${personNumber}`;
}

/** The row an address stands for (by its comparison key, as the Worker reads it). */
interface Person {
  id: string;
  referralCode: string;
}

/** Sign up as the page's script does; the answer's status, and once it is accepted the row the address stands for. */
async function signUp(email: string, extra: Record<string, unknown> = {}): Promise<{ status: number; person: Person | null }> {
  const response = await postSignup(service, { email, firstName: "Jordan", lastName: "Smith", ...extra });
  if (response.status !== 202) return { status: response.status, person: null };
  const [row] = await service.query<{ id: string; referral_code: string }>(
    "SELECT id, referral_code FROM signups WHERE email_key = ?1",
    emailKey(email),
  );
  return { status: response.status, person: { id: row.id, referralCode: row.referral_code } };
}

/** The rows whose comparison key is `key`. */
function rowsKeyed(key: string) {
  return service.query<{ id: string; email: string; email_key: string }>(
    "SELECT id, email, email_key FROM signups WHERE email_key = ?1",
    key,
  );
}

/**
 * Every spelling signs up and is accepted alike (202: a stranger cannot tell a new address from one on the list), and
 * the first spelling's row is the only one.
 */
async function expectOnePerson(key: string, ...spellings: string[]): Promise<void> {
  const first = await signUp(spellings[0]);
  expect(first.status).toBe(202);
  for (const spelling of spellings.slice(1)) {
    const again = await signUp(spelling);
    expect([spelling, again.status]).toEqual([spelling, 202]);
  }
  expect(await rowsKeyed(key)).toEqual([expect.objectContaining({ id: first.person?.id, email_key: key })]);
}

/** A 400 refusal's code and pointer; and nothing was stored or queued for delivery by it. */
async function expectRefused(body: Record<string, unknown>, code: string, pointer: string): Promise<void> {
  const rows = await rowCount(service);
  const queued = service.queued().length;
  const response = await postSignup(service, { firstName: "Jordan", lastName: "Smith", ...body });
  expect(response.status).toBe(400);
  expect((await errorsOf(response)).map((error) => [error.code, error.source?.pointer])).toEqual([[code, pointer]]);
  expect(await rowCount(service)).toBe(rows);
  expect(service.queued()).toHaveLength(queued);
}

describe("one person per inbox", () => {
  it("a trailing dot does not make a second person", async () => {
    const name = newName("ann");
    const dotted = `${name.split("").join(".")}@gmail.com`;
    await expectOnePerson(`${name}@gmail.com`, `${dotted}.`, `${name}@gmail.com`, `${dotted}`);
    const [row] = await rowsKeyed(`${name}@gmail.com`);
    // Stored and delivered without the trailing dot, which Klaviyo would refuse.
    expect(row.email).toBe(dotted);
  });

  it("an IDN domain and its punycode are one person", async () => {
    const name = newName("ann");
    await expectOnePerson(`${name}@xn--bcher-kva.de`, `${name}@bücher.de`, `${name}@xn--bcher-kva.de`, `${name}@BÜCHER.DE.`);
  });

  it("fullwidth letters do not make a second person", async () => {
    const name = newName("ann");
    const fullwidth = [...name].map((char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0)).join("");
    await expectOnePerson(`${name}@example.com`, `${name}@example.com`, `${fullwidth}@ｅｘａｍｐｌｅ．ｃｏｍ`);
  });

  it("Fastmail's subdomain addressing does not make a second person", async () => {
    const name = newName("ann");
    await expectOnePerson(`${name}@fastmail.com`, `${name}@fastmail.com`, `shop@${name}.fastmail.com`, `news@${name}.FastMail.com.`);
  });

  it("me.com and mac.com do not make a second person at iCloud", async () => {
    const name = newName("ann");
    await expectOnePerson(`${name}@icloud.com`, `${name}@icloud.com`, `${name}@me.com`, `${name}+x@mac.com`);
  });

  it("a second spelling of one's own address cannot refer oneself", async () => {
    const name = newName("ann");
    const own = await signUp(`${name}@gmail.com`);
    const again = await signUp(`${name.slice(0, 2)}.${name.slice(2)}@googlemail.com.`, { ref: own.person?.referralCode });
    expect(again.status).toBe(202);
    const [row] = await service.query<{ referrals: number; referred_by: string | null }>(
      "SELECT referrals, referred_by FROM signups WHERE id = ?1",
      own.person?.id,
    );
    expect(row).toEqual({ referrals: 0, referred_by: null });
  });
});

describe("an address with no inbox is refused before anything is stored", () => {
  it("a zero-width space cannot make a second person", async () => {
    const name = newName("ann");
    await expectRefused({ email: `${name}\u200b@gmail.com` }, "invalid_email", "/email");
    await expectRefused({ email: `${name}@gmail\u200b.com` }, "invalid_email", "/email");
  });

  it("a bidirectional override cannot disguise an address", async () => {
    await expectRefused({ email: `${newName("ann")}\u202e@example.com` }, "invalid_email", "/email");
  });

  it("a quoted local part cannot make a second person", async () => {
    await expectRefused({ email: `"${newName("ann")}"@example.com` }, "invalid_email", "/email");
  });

  it("a domain with an empty or hyphen-edged label is refused", async () => {
    await expectRefused({ email: `${newName("ann")}@example..com` }, "invalid_email", "/email");
    await expectRefused({ email: `${newName("ann")}@-example.com` }, "invalid_email", "/email");
  });

  it("punycode that does not decode, or that IDNA would write otherwise, cannot make a second domain", async () => {
    await expectRefused({ email: `${newName("ann")}@xn--zz.de` }, "invalid_email", "/email");
    await expectRefused({ email: `${newName("ann")}@xn--abc-.com` }, "invalid_email", "/email");
  });

  it("a disposable domain with a trailing dot is refused", async () => {
    await expectRefused({ email: `${newName("a.n.n")}@mailinator.com.` }, "disposable_email", "/email");
    await expectRefused({ email: `${newName("ann")}@MAILINATOR.COM.` }, "disposable_email", "/email");
  });
});

describe("a name that is only a name", () => {
  it("a name holding a link is refused and nothing reaches Klaviyo", async () => {
    const email = `${newName("ann")}@example.com`;
    await expectRefused({ email, firstName: "Claim $500 at https://pickfund-bonus.io" }, "first_name_invalid", "/firstName");
    await expectRefused({ email, firstName: "pickfund-bonus.io" }, "first_name_invalid", "/firstName");
    await expectRefused({ email, lastName: "www.pickfund-bonus" }, "last_name_invalid", "/lastName");
    await service.deliver();
    expect((await klaviyo.records()).received.filter((request) => request.emails.includes(email))).toEqual([]);
  });

  it("a name holding a terminal escape is refused", async () => {
    await expectRefused({ email: `${newName("ann")}@example.com`, lastName: "Smith\u001b[2K" }, "last_name_invalid", "/lastName");
    await expectRefused(
      { email: `${newName("ann")}@example.com`, firstName: "\u001b]8;;https://x\u0007Ann" },
      "first_name_invalid",
      "/firstName",
    );
  });

  it("a name holding an @ or a bidirectional override is refused", async () => {
    await expectRefused({ email: `${newName("ann")}@example.com`, firstName: "ann@example" }, "first_name_invalid", "/firstName");
    await expectRefused({ email: `${newName("ann")}@example.com`, lastName: "Smith\u202e" }, "last_name_invalid", "/lastName");
  });

  it("real names are stored and reach Klaviyo as typed", async () => {
    const email = `${newName("ann")}@example.com`;
    const { status } = await signUp(email, { firstName: "José-Anne", lastName: "O'Brien" });
    expect(status).toBe(202);
    await service.deliver();
    expect((await klaviyo.records()).profileImports.filter((profile) => profile.email === email)).toEqual([
      expect.objectContaining({ firstName: "José-Anne", lastName: "O'Brien" }),
    ]);
  });

  it("the no-JavaScript form's name holding a link goes back to the field's message", async () => {
    const rows = await rowCount(service);
    const response = await postSignup(
      service,
      new URLSearchParams({ email: `${newName("ann")}@example.com`, first_name: "t.me/scam", last_name: "S.", website: "", page: "/" }),
    );
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location") ?? "", service.origin).hash).toBe("#signup-error-firstNameInvalid");
    expect(await rowCount(service)).toBe(rows);
  });

  it("the no-JavaScript form's address with no inbox goes back to the invalid-email message", async () => {
    const response = await postSignup(
      service,
      new URLSearchParams({ email: `${newName("ann")}@gmail.com..`, first_name: "Ann", last_name: "Lee", website: "", page: "/" }),
    );
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location") ?? "", service.origin).hash).toBe("#signup-error-invalidEmail");
  });
});

describe("what reaches Klaviyo, and what Klaviyo's webhook finds", () => {
  it("Klaviyo gets the address without the trailing dot, its domain in ASCII", async () => {
    const name = newName("Ann");
    expect((await signUp(`${name}@Bücher.de.`)).status).toBe(202);
    await service.deliver();
    const emails = (await klaviyo.records()).subscriptions.map((subscription) => subscription.email);
    expect(emails).toContain(`${name}@xn--bcher-kva.de`);
    expect(emails.filter((email) => email.toLowerCase().includes(name.toLowerCase()))).toEqual([`${name}@xn--bcher-kva.de`]);
  });

  it("the confirmation webhook finds the person by any spelling of their inbox", async () => {
    const confirming = startWaitlistService({
      settings: { ...TEST_SETTINGS, referrals: { ...TEST_SETTINGS.referrals, countAfter: "confirmation" } },
      vars: { KLAVIYO_WEBHOOK_SECRET: WEBHOOK_SECRET },
    });
    const name = newName("ann");
    const signup = await postSignup(confirming, { email: `${name}@bücher.de.`, firstName: "Ann", lastName: "Lee" });
    expect(signup.status).toBe(202);
    const response = await confirming.fetch(`${confirming.origin}${CONFIRMATION_WEBHOOK_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${WEBHOOK_SECRET}` },
      body: WEBHOOK_BODY_TEMPLATE.replace(WEBHOOK_EMAIL_VARIABLE, `${name.toUpperCase()}@XN--BCHER-KVA.DE`),
    });
    expect(await response.json()).toMatchObject({ matched: true });
  });
});
