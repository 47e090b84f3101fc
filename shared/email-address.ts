/**
 * One canonical address per inbox: the spelling a signup is compared by (the service's `email_key`), and the refusal
 * of addresses no inbox can be named for. No dependencies: it runs in the browser, Node and workerd alike, and uses
 * the platform's URL parser for IDNA. docs/referrals.md's "Fair play" says what counts as one person.
 */

/**
 * The e-mail check of product rule 7: non-space characters, a single @, then a domain containing a dot
 * (`a@b.c` passes; `user@localhost`, `a@b@c.d`, `@x.com`, `x@.` fail).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Characters nobody can see or type on purpose: controls (Cc), formats (Cf: zero-width spaces and joiners, bidirectional
 * overrides and isolates, the soft hyphen), surrogates, private use, unassigned code points, line and paragraph
 * separators, every default-ignorable code point (Hangul fillers, variation selectors) and the blank braille pattern.
 * Each can make two spellings of one inbox look alike, or hide text from whoever reads it.
 */
export const INVISIBLE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Characters only a quoted local part or a comment may hold (RFC 5322 `specials`): refused, as quoting is. */
const LOCAL_PART_SPECIAL = /["(),:;<>[\]\\]/;

/** What a domain may hold before IDNA: letters, marks and digits of any script, dots and hyphens. */
const DOMAIN_CHARACTERS = /^[\p{L}\p{M}\p{N}.-]+$/u;

/** One label of a domain in ASCII: 1–63 letters, digits and hyphens, not starting or ending with a hyphen. */
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain's length limit in ASCII, without the trailing dot (RFC 1035). */
const DOMAIN_MAX_LENGTH = 253;

/** Gmail's domains: googlemail.com is the same mailbox as gmail.com, and Gmail ignores dots in usernames. */
const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);
const GMAIL = "gmail.com";

/** Apple's older iCloud domains: `ann@me.com` and `ann@mac.com` are the inbox `ann@icloud.com`. */
const APPLE_DOMAINS = new Set(["icloud.com", "me.com", "mac.com"]);
const ICLOUD = "icloud.com";

/**
 * Fastmail's own domains on which `anything@user.<domain>` is delivered to `user@<domain>` (Fastmail's subdomain
 * addressing), as the address normalisers list them (Python's email-normalize). Each keeps its own users:
 * `ann@fastmail.fm` is not `ann@fastmail.com`. A custom domain hosted at Fastmail can turn it on too, which no rule
 * can see from the address.
 */
const FASTMAIL_DOMAINS = ["fastmail.com", "fastmail.fm", "messagingengine.com"];

/** Why an address names no inbox we accept. */
export type AddressRefusal =
  /** an invisible or control character (INVISIBLE_CHARACTER) */
  | "invisible"
  /** not `local@domain.tld` (EMAIL_PATTERN) after NFKC */
  | "pattern"
  /** a quoted local part, or a character only quoting allows */
  | "quoted"
  /** a domain IDNA or the label rules refuse */
  | "domain"
  /** a non-ASCII local part at a provider that gives out ASCII usernames only */
  | "local";

/** An address read: its canonical inbox, or why it has none. */
export type CanonicalAddress =
  | {
      ok: true;
      /** The comparison key: one spelling per inbox (`annlee@gmail.com` for `Ann.Lee+news@GoogleMail.com.`). */
      inbox: string;
      /** The address to deliver to: the local part as typed (NFKC), at the domain in lower-case ASCII without a trailing dot. */
      address: string;
      /** The inbox's domain, in ASCII (the disposable list is checked on it). */
      domain: string;
    }
  | { ok: false; reason: AddressRefusal };

/** RFC 3492's Punycode parameters for IDNA. */
const PUNYCODE = { base: 36, tMin: 1, tMax: 26, skew: 38, damp: 700, initialBias: 72, initialN: 0x80 } as const;
/** The prefix of a label in Punycode (RFC 5890's ACE prefix). */
const ACE_PREFIX = "xn--";

/** RFC 3492 §6.1: the bias after a delta. */
function adaptBias(delta: number, points: number, first: boolean): number {
  const { base, tMin, tMax, skew, damp } = PUNYCODE;
  let scaled = first ? Math.floor(delta / damp) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  for (; scaled > ((base - tMin) * tMax) >> 1; k += base) scaled = Math.floor(scaled / (base - tMin));
  return k + Math.floor(((base - tMin + 1) * scaled) / (scaled + skew));
}

/**
 * RFC 3492 §6.2: the Unicode a Punycode label (without `xn--`) stands for, or null when it is not valid Punycode.
 * Browsers do not all check this when they parse a host, so the module does, and every platform refuses alike.
 */
function decodePunycode(input: string): string | null {
  const { base, tMin, tMax, initialBias, initialN } = PUNYCODE;
  const output: number[] = [];
  const delimiter = input.lastIndexOf("-");
  for (let index = 0; index < delimiter; index += 1) {
    if (input.charCodeAt(index) >= 0x80) return null;
    output.push(input.charCodeAt(index));
  }
  let n: number = initialN;
  let bias: number = initialBias;
  let i = 0;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const before = i;
    for (let weight = 1, k = base; ; k += base) {
      if (index >= input.length) return null;
      const code = input.charCodeAt(index++);
      const digit = code >= 0x61 && code <= 0x7a ? code - 0x61 : code >= 0x30 && code <= 0x39 ? code - 22 : base;
      if (digit >= base || digit > Math.floor((Number.MAX_SAFE_INTEGER - i) / weight)) return null;
      i += digit * weight;
      const threshold = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < threshold) break;
      weight *= base - threshold;
    }
    const length = output.length + 1;
    bias = adaptBias(i - before, length, before === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return null;
    output.splice(i, 0, n);
    i += 1;
  }
  return String.fromCodePoint(...output);
}

/**
 * Whether a label in ASCII is the one IDNA gives for what it stands for: a Punycode label must decode to what a
 * domain may hold (DOMAIN_CHARACTERS), which must map back to exactly it (`xn--zz` does not decode; `xn--abc-` is
 * `abc`, which is written `abc`).
 */
function roundTrips(label: string): boolean {
  if (!label.startsWith(ACE_PREFIX)) return true;
  const unicode = decodePunycode(label.slice(ACE_PREFIX.length));
  if (unicode === null || !DOMAIN_CHARACTERS.test(unicode)) return false;
  try {
    return new URL(`http://${unicode}`).hostname === label;
  } catch {
    return false;
  }
}

/**
 * A domain in lower-case ASCII through the platform's IDNA (`bücher.de` → `xn--bcher-kva.de`), or null when it is not
 * a host name: IDNA refuses it, its ASCII form does not map to itself again, a label breaks ASCII_LABEL or is
 * Punycode that does not round-trip (roundTrips), it is longer than DOMAIN_MAX_LENGTH, it has a single label, or its
 * last label is all digits (an IPv4 address to a URL parser).
 * @param domain lower case, after NFKC, without the trailing dot
 */
function asciiDomain(domain: string): string | null {
  // Punycode as typed is checked before the URL parser reads it: some parsers decode it and write it anew, some keep it.
  if (!DOMAIN_CHARACTERS.test(domain) || !domain.split(".").every(roundTrips)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}`).hostname;
    if (new URL(`http://${ascii}`).hostname !== ascii) return null;
  } catch {
    return null;
  }
  const labels = ascii.split(".");
  if (ascii.length > DOMAIN_MAX_LENGTH || labels.length < 2 || /^\d+$/.test(labels[labels.length - 1])) return null;
  return labels.every((label) => ASCII_LABEL.test(label) && roundTrips(label)) ? ascii : null;
}

/**
 * The canonical inbox of an address. In order:
 * - trimmed; refused when it holds an INVISIBLE_CHARACTER;
 * - NFKC (fullwidth and other compatibility forms become the plain characters); refused when it fails EMAIL_PATTERN;
 * - refused when the local part is quoted or holds a character only quoting allows (`"a b"@x.com`, `a\b@x.com`);
 * - the domain in lower-case ASCII through IDNA, one trailing dot removed, each label checked (asciiDomain);
 * - the local part in lower case (providers treat it case-insensitively in practice), a `+tag` removed (kept when
 *   nothing precedes it: `+news@x.com`);
 * - gmail.com and googlemail.com: dots removed (kept if nothing else is left), written gmail.com;
 * - me.com and mac.com written icloud.com;
 * - Fastmail's `anything@user.fastmail.com` written `user@fastmail.com` (FASTMAIL_DOMAINS, each its own domain);
 * - at Gmail, iCloud and Fastmail a non-ASCII local part is refused: they give out ASCII usernames only.
 * Other domains keep their dots: on custom domains `j.doe@firm.com` and `jdoe@firm.com` can be two people.
 * @returns `{ ok: true, inbox, address, domain }`, e.g. inbox `johndoe@gmail.com` for `John.Doe+waitlist@GoogleMail.com`,
 *   or `{ ok: false, reason }`
 */
export function canonicalAddress(email: string): CanonicalAddress {
  const typed = email.trim();
  if (INVISIBLE_CHARACTER.test(typed)) return { ok: false, reason: "invisible" };
  const normalized = typed.normalize("NFKC");
  if (INVISIBLE_CHARACTER.test(normalized)) return { ok: false, reason: "invisible" };
  if (!EMAIL_PATTERN.test(normalized)) return { ok: false, reason: "pattern" };

  const at = normalized.lastIndexOf("@");
  const typedLocal = normalized.slice(0, at);
  if (LOCAL_PART_SPECIAL.test(typedLocal)) return { ok: false, reason: "quoted" };
  let domain = normalized
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, "");
  const ascii = asciiDomain(domain);
  if (ascii === null) return { ok: false, reason: "domain" };
  domain = ascii;
  const address = `${typedLocal}@${domain}`;

  let local = typedLocal.toLowerCase();
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  let provider = false;
  const fastmail = FASTMAIL_DOMAINS.find((base) => domain.endsWith(`.${base}`));
  if (fastmail) {
    const subdomain = domain.slice(0, -fastmail.length - 1);
    local = subdomain.slice(subdomain.lastIndexOf(".") + 1);
    domain = fastmail;
    provider = true;
    // A username label in punycode is a non-ASCII username.
    if (local.startsWith("xn--")) return { ok: false, reason: "local" };
  } else if (FASTMAIL_DOMAINS.includes(domain)) {
    provider = true;
  } else if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "") || local;
    domain = GMAIL;
    provider = true;
  } else if (APPLE_DOMAINS.has(domain)) {
    domain = ICLOUD;
    provider = true;
  }
  if (provider && /[^\x20-\x7e]/.test(local)) return { ok: false, reason: "local" };
  return { ok: true, inbox: `${local}@${domain}`, address, domain };
}
