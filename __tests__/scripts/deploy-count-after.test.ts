/**
 * `npm run deploy` refuses a build that counts referrals at signup (scripts/service/referral-counting.ts), telling the
 * editor which line of the content file to change and to what.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { countAfterProblem } from "../../scripts/service/referral-counting";
import { PROJECT_DIR } from "../../scripts/lib/gatsby-build";

const PROGRAM = { enabled: true, placesPerReferral: 10, entriesPerReferral: 1 };
const SITE = readFileSync(path.join(PROJECT_DIR, "content", "site.yaml"), "utf8");
const COUNTED_AT_SIGNUP = SITE.replace(/^( {2}countAfter:) confirmation$/m, "$1 signup");

test("countAfter: signup in production is refused on the content file's line and column of the value, with the fix", () => {
  expect(COUNTED_AT_SIGNUP).not.toBe(SITE);
  const line = COUNTED_AT_SIGNUP.split("\n").findIndex((text) => text === "  countAfter: signup") + 1;
  const problem = countAfterProblem({ referrals: { ...PROGRAM, countAfter: "signup" } }, COUNTED_AT_SIGNUP, "content/site.yaml");
  expect(problem).toContain(`content/site.yaml:${line}:15  referrals.countAfter`);
  expect(problem).toContain("A live site cannot count a referral at signup");
  expect(problem).toContain("Example of a valid value:  confirmation");
});

test("takes countAfter: confirmation, and a program that is off", () => {
  expect(countAfterProblem({ referrals: { ...PROGRAM, countAfter: "confirmation" } }, SITE, "content/site.yaml")).toBeNull();
  expect(
    countAfterProblem({ referrals: { ...PROGRAM, enabled: false, countAfter: "signup" } }, COUNTED_AT_SIGNUP, "content/site.yaml"),
  ).toBeNull();
});
