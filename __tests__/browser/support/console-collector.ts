/**
 * Collects what a page writes to the console and the errors it throws, so tests can
 * assert "no error or warning" (hydration mismatches included) or find a message.
 */
import type { Page } from "@playwright/test";

/** One console message or uncaught page error. */
export interface ConsoleEntry {
  /** console type ("error", "warning", "log", …) or "pageerror" for an uncaught exception. */
  type: string;
  text: string;
}

/**
 * Start recording a page's console. Attach before `page.goto` to catch everything.
 * @returns a live list that fills as the page runs
 */
export function collectConsole(page: Page): ConsoleEntry[] {
  const entries: ConsoleEntry[] = [];
  page.on("console", (message) => entries.push({ type: message.type(), text: message.text() }));
  page.on("pageerror", (error) => entries.push({ type: "pageerror", text: `${error.name}: ${error.message}` }));
  return entries;
}

/** Only the errors, warnings and uncaught exceptions. */
export function problems(entries: ConsoleEntry[]): ConsoleEntry[] {
  return entries.filter((entry) => entry.type === "error" || entry.type === "warning" || entry.type === "pageerror");
}
