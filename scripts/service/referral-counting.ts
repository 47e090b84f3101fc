/**
 * `npm run deploy`'s check of when referrals count: production refuses `referrals.countAfter: signup`
 * (shared/referral-program.ts: countsAtSignup, the rule the Worker applies too), told to the editor on the content
 * file's own line.
 */
import type { Node } from "yaml";
import { countsAtSignup } from "../../shared/referral-program";
import type { ServiceSettings } from "../../shared/service-settings";
import { formatContentErrors } from "../../src/content/load";
import { readYaml } from "../../src/content/yaml-syntax";

/** The setting's path in the content file. */
const COUNT_AFTER_PATH = ["referrals", "countAfter"];

/**
 * Why the build may not go to production because of when its referrals count, for the editor.
 * @param settings the build's service-settings.json
 * @param contentText the content file the build read
 * @param file its name as the message shows it, e.g. "content/site.yaml"
 * @returns the message (file:line:column, the field, the fix), or null when the build counts after confirmation or
 *   runs no referral program
 */
export function countAfterProblem(settings: Pick<ServiceSettings, "referrals">, contentText: string, file: string): string | null {
  if (!countsAtSignup(settings.referrals)) return null;
  let at = { line: 1, column: 1 };
  const read = readYaml(contentText, file);
  if (read.ok) {
    const node = read.doc.getIn(COUNT_AFTER_PATH, true) as Node | undefined;
    if (node?.range) at = read.at(node.range[0]);
  }
  return formatContentErrors([
    {
      file,
      ...at,
      field: COUNT_AFTER_PATH.join("."),
      message:
        "A live site cannot count a referral at signup: anyone could sign up someone else's address with their own link " +
        "and see from their own count whether that address was already on the waitlist. Write confirmation: a referral " +
        "then counts once the friend confirms their address in the e-mail Klaviyo sends.",
      example: "confirmation",
    },
  ]);
}
