/**
 * The address a signup is compared by (the `email_key` column, UNIQUE): two spellings that reach the same inbox
 * are one person, so a second signup with them is the same row, not a second place in line or a self-referral.
 */

/** Gmail's domains: googlemail.com is the same mailbox as gmail.com. */
const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The comparison key of an address:
 * - lower case (mail providers treat the local part case-insensitively in practice, and domains always are);
 * - a `+tag` removed from the local part (`ann+news@x.com` is delivered to `ann@x.com` by every provider that supports it);
 * - for gmail.com and googlemail.com only: dots removed from the local part (Gmail ignores dots in usernames) and the
 *   domain written gmail.com. Other domains keep their dots: on Google Workspace and other custom domains a dot is part
 *   of the name (`j.doe@firm.com` and `jdoe@firm.com` can be two people).
 * A local part that would be left empty (`+news@x.com`) is kept as it is.
 * @param email a trimmed address that passed the shared pattern (one `@`, a domain with a dot)
 * @returns e.g. `johndoe@gmail.com` for `John.Doe+waitlist@GoogleMail.com`
 */
export function emailKey(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "") || local;
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}
