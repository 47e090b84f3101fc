/**
 * Keyboard focus as a visitor meets it: which control has focus (by role-ish tag
 * and accessible text) and whether a focus ring is drawn around it.
 */
import type { Page } from "@playwright/test";

/** The focused element as "tag name", e.g. "input Email" or "button SSL Secured"; "body" when nothing has focus. */
export async function focusedControl(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "body";
    const tag = element.tagName.toLowerCase();
    const labelled = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null;
    const name = element.getAttribute("aria-label") ?? labelled ?? element.textContent ?? "";
    return `${tag} ${name.replace(/\s+/g, " ").trim()}`.trim();
  });
}

/**
 * Press Tab (or Shift+Tab) until focus leaves the page or comes back round, at most `limit` times,
 * and list the controls focused on the way, starting from the current focus.
 */
export async function tabSequence(page: Page, key: "Tab" | "Shift+Tab" = "Tab", limit = 20): Promise<string[]> {
  const seen: string[] = [];
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press(key);
    const control = await focusedControl(page);
    if (control === "body" || seen.includes(control)) break;
    seen.push(control);
  }
  return seen;
}

/** The outline and box-shadow Chromium draws around an element. */
export interface FocusIndicator {
  outlineStyle: string;
  outlineWidthPx: number;
  outlineColor: string;
  boxShadow: string;
  focusVisible: boolean;
}

/** The focused element's ring as computed now. */
export async function focusedIndicator(page: Page): Promise<FocusIndicator> {
  return page.evaluate(() => {
    const element = document.activeElement ?? document.body;
    const style = getComputedStyle(element);
    return {
      outlineStyle: style.outlineStyle,
      outlineWidthPx: parseFloat(style.outlineWidth),
      outlineColor: style.outlineColor,
      boxShadow: style.boxShadow,
      focusVisible: element.matches(":focus-visible"),
    };
  });
}

/** True when the indicator draws a visible ring of at least `minWidthPx`. */
export function isVisibleRing(indicator: FocusIndicator, minWidthPx = 2): boolean {
  const outline =
    indicator.outlineStyle !== "none" && indicator.outlineWidthPx >= minWidthPx && !/rgba\(.*,\s*0\)$/.test(indicator.outlineColor);
  return outline || indicator.boxShadow !== "none";
}

/** WCAG relative-luminance contrast of two colours, e.g. "rgb(251, 191, 36)" and "#0b1020". */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(parseColor(a)), luminance(parseColor(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * A colour's red, green and blue (0…255), from `#rrggbb` (the theme's) or `rgb()` / `rgba()` (getComputedStyle's).
 * @throws Error for any other notation
 */
export function parseColor(color: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return [parseInt(hex[1], 16), parseInt(hex[2], 16), parseInt(hex[3], 16)];
  const rgb = /^rgba?\((\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)/.exec(color);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`cannot read colour ${color}`);
}

function luminance([r, g, b]: [number, number, number]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
