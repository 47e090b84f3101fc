/**
 * The address a signup is compared by (the `email_key` column, UNIQUE): the canonical inbox of shared/email-address.ts,
 * so that two spellings of one inbox are one person, never a second place in line or a self-referral. Rows stored
 * before it keep the key of the earlier rule (lower case, `+tag` removed, Gmail's dots), which is the same for an
 * ASCII address without a trailing dot.
 */
import { canonicalAddress } from "../../../shared/email-address";

/**
 * The comparison key of an address, e.g. `johndoe@gmail.com` for `John.Doe+waitlist@GoogleMail.com.`. An address the
 * shared rules refuse has no inbox: its key is its trimmed lower case, which no signup accepted since can hold.
 */
export function emailKey(email: string): string {
  const canonical = canonicalAddress(email);
  return canonical.ok ? canonical.inbox : email.trim().toLowerCase();
}
