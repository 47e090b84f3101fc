/**
 * One canonical address per inbox (shared/email-address.ts): every spelling that reaches one inbox gives one key, and
 * every address no inbox can be named for is refused. Each test is named after what it prevents.
 */
import { canonicalAddress, type CanonicalAddress } from "../../shared/email-address";

/** The canonical inbox, or the refusal's reason prefixed with `refused:`. */
function inboxOf(email: string): string {
  const result: CanonicalAddress = canonicalAddress(email);
  return result.ok ? result.inbox : `refused:${result.reason}`;
}

/** Every spelling in `spellings` keys as `inbox`. */
function expectOneInbox(inbox: string, ...spellings: string[]) {
  for (const spelling of spellings) expect([spelling, inboxOf(spelling)]).toEqual([spelling, inbox]);
}

describe("spellings of one inbox are one key", () => {
  it("a trailing dot is the same inbox", () => {
    expectOneInbox("ann@gmail.com", "a.n.n@gmail.com.", "ann@gmail.com");
    expectOneInbox("ann@example.com", "ann@example.com.", "Ann@Example.COM.");
  });

  it("bücher.de and xn--bcher-kva.de are one domain", () => {
    expectOneInbox("ann@xn--bcher-kva.de", "ann@bücher.de", "ann@xn--bcher-kva.de", "ann@XN--BCHER-KVA.DE", "ann@BÜCHER.DE");
    expect(canonicalAddress("ann@bücher.de")).toMatchObject({ ok: true, domain: "xn--bcher-kva.de" });
  });

  it("a domain in decomposed Unicode is the domain in composed Unicode", () => {
    expectOneInbox("ann@xn--bcher-kva.de", "ann@bu\u0308cher.de");
  });

  it("fullwidth and other compatibility letters are the plain letters (NFKC)", () => {
    expectOneInbox("ann@gmail.com", "ａｎｎ@ｇｍａｉｌ．ｃｏｍ", "𝐚𝐧𝐧@gmail.com", "ann@gmail.com");
    expectOneInbox("fin@example.com", "ﬁn@example.com", "fin@example.com");
  });

  it("upper case is the same inbox", () => {
    expectOneInbox("ann.lee@example.com", "Ann.Lee@Example.COM", "ANN.LEE@EXAMPLE.COM");
  });

  it("a +tag is the same inbox", () => {
    expectOneInbox("ann@example.com", "ann+waitlist@example.com", "ann+a+b@example.com", "ann@example.com");
  });

  it("Gmail's dots and googlemail.com are the same inbox", () => {
    expectOneInbox(
      "johndoe@gmail.com",
      "john.doe@gmail.com",
      "J.o.H.n.Doe+news@Gmail.com",
      "John.Doe@googlemail.com",
      "john.doe@gmail.com.",
    );
  });

  it("Fastmail's subdomain addressing is the user's own inbox", () => {
    expectOneInbox("ann@fastmail.com", "anything@ann.fastmail.com", "shop+x@Ann.FastMail.com", "ann@fastmail.com", "ann+news@fastmail.com");
    expectOneInbox("ann@fastmail.fm", "news@ann.fastmail.fm", "ann@fastmail.fm");
    expectOneInbox("ann@messagingengine.com", "news@ann.messagingengine.com");
  });

  it("Fastmail's domains stay apart: ann@fastmail.fm is not ann@fastmail.com", () => {
    expect(inboxOf("x@ann.fastmail.fm")).not.toBe(inboxOf("ann@fastmail.com"));
  });

  it("me.com and mac.com are icloud.com", () => {
    expectOneInbox("ann@icloud.com", "ann@me.com", "ann@mac.com", "Ann@iCloud.com", "ann+x@me.com.");
  });

  it("the canonical inbox maps to itself", () => {
    for (const email of ["a.n.n+x@GoogleMail.com.", "x@ann.fastmail.com", "ann@bücher.de", "ann@me.com", "Ann.Lee@firm.co.uk"]) {
      const inbox = inboxOf(email);
      expect(inboxOf(inbox)).toBe(inbox);
    }
  });
});

describe("different inboxes stay apart (today's rules kept)", () => {
  it("dots count on custom domains and Gmail look-alikes", () => {
    expect(inboxOf("j.doe@firm.com")).not.toBe(inboxOf("jdoe@firm.com"));
    expect(inboxOf("john.doe@gmail.co.uk")).toBe("john.doe@gmail.co.uk");
    expect(inboxOf("john.doe@mail.gmail.com")).toBe("john.doe@mail.gmail.com");
  });

  it("a local part that is only a +tag is kept", () => {
    expect(inboxOf("+news@example.com")).toBe("+news@example.com");
  });

  it("surrounding white space is not part of the address", () => {
    expect(inboxOf("  ann@example.com ")).toBe("ann@example.com");
  });

  it("a Cyrillic look-alike on a custom domain is its own inbox, not a Latin one", () => {
    expect(inboxOf("аnn@example.com")).toBe("аnn@example.com");
    expect(inboxOf("аnn@example.com")).not.toBe(inboxOf("ann@example.com"));
  });
});

describe("an address no inbox can be named for is refused", () => {
  it("a zero-width space cannot make a second person", () => {
    for (const email of ["a\u200bnn@gmail.com", "ann@gma\u200bil.com", "ann\u200b@example.com", "\u200bann@example.com"])
      expect(inboxOf(email)).toBe("refused:invisible");
  });

  it("zero-width joiners, word joiners, the soft hyphen and the byte-order mark cannot make a second person", () => {
    for (const character of ["\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u180e"])
      expect(inboxOf(`an${character}n@example.com`)).toBe("refused:invisible");
  });

  it("bidirectional overrides and isolates cannot disguise an address", () => {
    for (const character of ["\u202a", "\u202b", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"])
      expect(inboxOf(`ann${character}@example.com`)).toBe("refused:invisible");
  });

  it("control characters (a terminal escape, a NUL, DEL) cannot reach the store", () => {
    for (const email of ["ann\u001b[2K@example.com", "ann\u0000@example.com", "ann\u007f@example.com", "ann\u0085@example.com"])
      expect(inboxOf(email)).toBe("refused:invisible");
  });

  it("other invisible characters (Hangul fillers, variation selectors, blank braille) cannot make a second person", () => {
    for (const character of ["\u3164", "\u115f", "\ufe0f", "\u034f", "\u2800", "\u{e0061}"])
      expect(inboxOf(`an${character}n@example.com`)).toBe("refused:invisible");
  });

  it("a quoted local part cannot make a second person", () => {
    expect(inboxOf('"ann"@example.com')).toBe("refused:quoted");
    expect(inboxOf('"a b"@example.com')).toBe("refused:pattern");
    expect(inboxOf('"a@b"@example.com')).toBe("refused:pattern");
    for (const email of ["a\\nn@example.com", "a(comment)nn@example.com", "a,nn@example.com", "a<nn>@example.com", "a:nn@example.com"])
      expect(inboxOf(email)).toBe("refused:quoted");
  });

  it("what the shared pattern refuses stays refused", () => {
    for (const email of ["user@localhost", "a@b@c.d", "@x.com", "x@.", "ann", "ann@", "ann example@x.com"])
      expect(inboxOf(email)).toBe("refused:pattern");
  });

  it("a domain with an empty, too long or hyphen-edged label is refused", () => {
    for (const email of [
      "ann@gmail..com",
      "ann@gmail.com..",
      "ann@.gmail.com",
      "ann@-gmail.com",
      "ann@gmail-.com",
      `ann@${"a".repeat(64)}.com`,
      `ann@${Array.from({ length: 5 }, () => "a".repeat(63)).join(".")}.com`,
    ])
      expect([email, inboxOf(email)]).toEqual([email, "refused:domain"]);
    expect(inboxOf(`ann@${"a".repeat(63)}.com`)).toBe(`ann@${"a".repeat(63)}.com`);
  });

  it("a domain with characters a host name cannot hold is refused, not cut at a URL delimiter", () => {
    for (const email of [
      "ann@evil.com/x.com",
      "ann@evil.com?.com",
      "ann@evil.com#.com",
      "ann@ex%41mple.com",
      "ann@a_b.com",
      "ann@x.com:80",
    ])
      expect([email, inboxOf(email)]).toEqual([email, "refused:domain"]);
  });

  it("an IP address or a numeric top-level label is not a domain", () => {
    for (const email of ["ann@1.2.3.4", "ann@0x7f.1", "ann@example.123"])
      expect([email, inboxOf(email)]).toEqual([email, "refused:domain"]);
  });

  it("punycode that does not decode is refused on every platform, not only where the URL parser checks it", () => {
    for (const email of ["ann@xn--zz.com", "ann@xn--.com", "ann@xn--a.com", "ann@xn--99999999999.com"])
      expect([email, inboxOf(email)]).toEqual([email, "refused:domain"]);
  });

  it("a punycode label that IDNA would write otherwise cannot make a second domain", () => {
    // `xn--abc-` stands for `abc`, which IDNA writes `abc`.
    expect(inboxOf("ann@xn--abc-.com")).toBe("refused:domain");
    expect(inboxOf("ann@abc.com")).toBe("ann@abc.com");
  });

  it("punycode for what a domain may not hold is refused as its Unicode is", () => {
    expect(inboxOf("ann@💩.la")).toBe("refused:domain");
    expect(inboxOf("ann@xn--ls8h.la")).toBe("refused:domain");
  });

  it("punycode of real IDN domains decodes and round-trips", () => {
    for (const [unicode, ascii] of [
      ["bücher.de", "xn--bcher-kva.de"],
      ["münchen.de", "xn--mnchen-3ya.de"],
      ["faß.de", "xn--fa-hia.de"],
      ["中国.cn", "xn--fiqs8s.cn"],
      ["пример.рф", "xn--e1afmkfd.xn--p1ai"],
    ])
      expectOneInbox(`ann@${ascii}`, `ann@${unicode}`, `ann@${ascii}`);
  });

  it("a look-alike username at Gmail, iCloud or Fastmail cannot make a second person", () => {
    for (const email of ["аnn@gmail.com", "ännа@me.com", "ann@ännа.fastmail.com", "jöhn@googlemail.com"])
      expect([email, inboxOf(email)]).toEqual([email, "refused:local"]);
  });
});

describe("the address to deliver to", () => {
  it("keeps the local part as typed and writes the domain in lower-case ASCII without the trailing dot", () => {
    expect(canonicalAddress(" Ann.Lee+news@GoogleMail.com. ")).toEqual({
      ok: true,
      inbox: "annlee@gmail.com",
      address: "Ann.Lee+news@googlemail.com",
      domain: "gmail.com",
    });
    expect(canonicalAddress("Ann@Bücher.de")).toMatchObject({ address: "Ann@xn--bcher-kva.de" });
    expect(canonicalAddress("ａｎｎ@example.com")).toMatchObject({ address: "ann@example.com" });
  });

  it("names the inbox's domain, which the disposable list is checked on", () => {
    expect(canonicalAddress("x@ann.fastmail.com")).toMatchObject({ domain: "fastmail.com", address: "x@ann.fastmail.com" });
    expect(canonicalAddress("a.n.n@mailinator.com.")).toMatchObject({ domain: "mailinator.com" });
  });
});
