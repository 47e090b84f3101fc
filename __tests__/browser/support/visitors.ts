/**
 * Made-up visitors with e-mail addresses no other test uses, so that each test finds
 * its own requests at the provider stand-in (which every test file shares).
 */
import { randomUUID } from "node:crypto";

/** What a visitor types into the signup form. */
export interface Visitor {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * A visitor with a unique e-mail address and first name.
 * @param label shows up in the address, to read stand-in logs, e.g. "slow-signup"
 */
export function uniqueVisitor(label: string): Visitor {
  const id = randomUUID().slice(0, 8);
  return { email: `${label}-${id}@example.test`, firstName: `Jordan-${id}`, lastName: "Smith" };
}
