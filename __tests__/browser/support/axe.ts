/** axe-core scans against WCAG 2.2 AA (product rule 23), printed so a CI log says what and where without a re-run. */
import { AxeBuilder } from "@axe-core/playwright";
import type { Result } from "axe-core";
import type { Page } from "@playwright/test";

/** WCAG 2.0, 2.1 and 2.2 A/AA success criteria, and axe's best practices. */
export const WCAG_22_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Run axe on the page as it is now.
 * @returns the violations (empty when the page passes)
 */
export async function axeViolations(page: Page): Promise<Result[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA_TAGS).analyze();
  return results.violations;
}

/** The violations as text, one block per rule, with each offending node's selector and axe's explanation. */
export function formatViolations(violations: Result[]): string {
  if (violations.length === 0) return "no accessibility violations";
  return violations
    .map((violation) => {
      const nodes = violation.nodes.map((node) => {
        const summary = (node.failureSummary ?? "").replace(/\s*\n\s*/g, " ").trim();
        return `    - ${node.target.join(" ")}\n      ${summary}`;
      });
      return `[${violation.impact ?? "n/a"}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${nodes.join("\n")}`;
    })
    .join("\n");
}

/**
 * Fail with the formatted violations when axe finds any on the page.
 * @param state for the failure message, e.g. "/ with an error toast"
 */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) {
    throw new Error(
      `axe found ${violations.length} WCAG 2.2 AA / best-practice violation(s) on ${state}:\n${formatViolations(violations)}`,
    );
  }
}
