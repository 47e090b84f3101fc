/**
 * Layout checks in the page: covered controls (hit-tested as a tap would be, however the cover is styled),
 * sideways scrolling (WCAG 1.4.10), target size (WCAG 2.5.8) and obscured focus (WCAG 2.4.11). Each
 * returns one sentence per problem naming the control; an empty list means the page is clean.
 */
import type { Page } from "@playwright/test";

/** A screen the layout is checked on: its CSS viewport and how many device pixels make one CSS px. */
export interface Screen {
  /** As a failure message names it, e.g. "390×844" or "1280×800 at 400 % zoom". */
  name: string;
  /** For file names, e.g. "390x844". */
  slug: string;
  /** CSS px. */
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
}

function screen(width: number, height: number): Screen {
  return { name: `${width}×${height}`, slug: `${width}x${height}`, viewport: { width, height }, deviceScaleFactor: 1 };
}

/**
 * The screens most visitors have, and a 1280 × 800 desktop at 400 % zoom (WCAG 1.4.10). Playwright cannot
 * press Chromium's zoom and CSS `zoom` leaves media queries at 1280 px, so the zoom is emulated by its
 * result: a 320 × 200 viewport at deviceScaleFactor 4. No `isMobile`: a mobile viewport lets Chromium zoom
 * out a page that is too wide, hiding the sideways scrolling these checks look for.
 */
export const SCREENS: readonly Screen[] = [
  screen(320, 568),
  screen(360, 640),
  screen(375, 667),
  screen(390, 844),
  screen(412, 915),
  screen(768, 1024),
  screen(1280, 800),
  screen(1920, 1080),
  { name: "1280×800 at 400 % zoom", slug: "1280x800-zoom400", viewport: { width: 320, height: 200 }, deviceScaleFactor: 4 },
];

/** WCAG 2.5.8 Target Size (Minimum), CSS px each way. */
export const MIN_TARGET_PX = 24;

/**
 * Where hit tests probe each box: a 3 × 3 grid at these fractions of its width and height.
 * 0.2 stays inside rounded shapes (a point at 0.2, 0.2 of a circle's box is 0.42 of its
 * diameter from the centre, inside its radius of 0.5), so a pill or a round button is not
 * mistaken for something covered at its corners.
 */
const PROBE_FRACTIONS = [0.2, 0.5, 0.8];

/** A control something else is on top of, at one scroll position. */
interface Covering {
  /** "at the top", "scrolled to the end", "scrolled to 640 px". */
  at: string;
  /** e.g. `button "Secure Spot & Access Discord"`. */
  control: string;
  /** Probe points of the control inside the viewport. */
  probed: number;
  /** How many of them hit something else. */
  covered: number;
  /** What they hit instead, e.g. `button "Pause background animation" (position: fixed)`. */
  by: string[];
}

interface SweepFindings {
  /** How far the page scrolls sideways (CSS px), 0 when it does not, and the elements that stick out. */
  sideways: { px: number; widthPx: number; culprits: string[] };
  /** Targets under MIN_TARGET_PX. */
  small: { control: string; widthPx: number; heightPx: number }[];
  coverings: Covering[];
}

/** The focused element after one Tab press. */
interface FocusFinding {
  /** Null when focus has left the page (the body has it). */
  control: string | null;
  /** True when this element had focus before: the walk has gone round. */
  repeat: boolean;
  probed: number;
  covered: number;
  by: string[];
}

type ProbeRequest = { mode: "sweep" | "focus"; fractions: number[]; minTargetPx: number };

/**
 * Runs in the page (serialised by page.evaluate, so everything it uses is declared inside).
 * "sweep": the sideways and target-size checks, then hit-tests every visible control at the
 * top, every half viewport down, and at the end of the page. "focus": hit-tests the focused element.
 */
function probeInPage({ mode, fractions, minTargetPx }: ProbeRequest): SweepFindings | FocusFinding {
  const CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"]';
  const root = document.documentElement;
  const viewWidth = root.clientWidth;
  const viewHeight = root.clientHeight;
  const clean = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();
  const shorten = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

  function accessibleName(element: Element): string {
    const labelledBy = element.getAttribute("aria-labelledby");
    if (labelledBy) {
      const text = clean(
        labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? "")
          .join(" "),
      );
      if (text) return text;
    }
    const label = clean(element.getAttribute("aria-label"));
    if (label) return label;
    if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) {
      const labels = clean(
        Array.from(element.labels ?? [])
          .map((node) => node.textContent ?? "")
          .join(" "),
      );
      return labels || clean(element.getAttribute("placeholder")) || clean(element.getAttribute("title"));
    }
    return clean(element.textContent) || clean(element.getAttribute("title"));
  }

  function role(element: Element): string {
    const explicit = element.getAttribute("role");
    if (explicit) return explicit;
    const tag = element.tagName.toLowerCase();
    if (tag === "a") return "link";
    if (tag === "select") return "combobox";
    if (tag === "input") {
      const type = (element as HTMLInputElement).type;
      if (type === "checkbox" || type === "radio") return type;
      return ["submit", "button", "reset", "image"].includes(type) ? "button" : "textbox";
    }
    if (tag === "textarea") return "textbox";
    if (tag === "summary") return "button";
    return tag;
  }

  function describeControl(element: Element): string {
    return `${role(element)} "${shorten(accessibleName(element))}"`;
  }

  /** Any element, for what covers a control: its tag, text or the name of the labelled region it sits in. */
  function describeElement(element: Element): string {
    const tag = element.tagName.toLowerCase();
    const id = element.id ? `#${element.id}` : "";
    const text = shorten(clean(element.getAttribute("aria-label")) || clean((element as HTMLElement).innerText));
    if (text) return `${tag}${id} "${text}"`;
    const named = element.parentElement?.closest("[aria-label]");
    return named ? `${tag}${id} (empty) in ${role(named)} "${shorten(clean(named.getAttribute("aria-label")))}"` : `${tag}${id} (empty)`;
  }

  /** What is on top at a point: the control it belongs to, or the element, and the fixed or sticky box that carries it. */
  function describeCover(hit: Element): string {
    const control = hit.closest(CONTROLS);
    const what = control ? describeControl(control) : describeElement(hit);
    for (let node: Element | null = hit; node && node !== root; node = node.parentElement) {
      const position = getComputedStyle(node).position;
      if (position === "fixed" || position === "sticky") {
        return node === hit || node === control
          ? `${what} (position: ${position})`
          : `${what} in ${describeElement(node)} (position: ${position})`;
      }
    }
    return what;
  }

  /** The element's box cut to every ancestor that clips overflow (body and html clip the viewport, not a box); null when nothing is left. */
  function clippedBox(element: Element): { left: number; top: number; right: number; bottom: number } | null {
    const box = element.getBoundingClientRect();
    let { left, top, right, bottom } = box;
    for (let node = element.parentElement; node && node !== document.body && node !== root; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.clip === "rect(0px, 0px, 0px, 0px)") return null;
      const clipsX = style.overflowX !== "visible";
      const clipsY = style.overflowY !== "visible";
      if (!clipsX && !clipsY) continue;
      const outer = node.getBoundingClientRect();
      if (clipsX) [left, right] = [Math.max(left, outer.left), Math.min(right, outer.right)];
      if (clipsY) [top, bottom] = [Math.max(top, outer.top), Math.min(bottom, outer.bottom)];
    }
    return right - left >= 1 && bottom - top >= 1 ? { left, top, right, bottom } : null;
  }

  /**
   * Seen by a visitor: rendered (not display: none, visibility: hidden or opacity 0), not
   * clipped away, and not placed before the document's start where no scrolling reaches it
   * (the honeypot field, say).
   */
  function isVisible(element: Element): boolean {
    if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = clippedBox(element);
    return box !== null && box.right + window.scrollX > 0 && box.bottom + window.scrollY > 0;
  }

  /** The box that lays out an element's line: the nearest ancestor (or itself) that is not inline. */
  function blockAround(element: Element): Element {
    let node = element;
    while (node.parentElement && ["inline", "contents"].includes(getComputedStyle(node).display)) node = node.parentElement;
    return node;
  }

  /**
   * WCAG 2.5.8's inline exception: a link inside running text, whose size the line-height of
   * the text around it sets. Decided as: an `<a>` laid out inline whose block holds other
   * visible text on its own lines (text outside the link, not in a nested block).
   */
  function inRunningText(element: Element): boolean {
    if (element.tagName !== "A" || getComputedStyle(element).display !== "inline" || !element.parentElement) return false;
    const block = blockAround(element.parentElement);
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || element.contains(node) || !clean(node.textContent)) continue;
      if (blockAround(parent) === block && isVisible(parent)) return true;
    }
    return false;
  }

  /** The boxes to probe: one per line for an inline element (a wrapped link), else its border box. */
  function probeBoxes(element: Element): DOMRect[] {
    const boxes = getComputedStyle(element).display === "inline" ? Array.from(element.getClientRects()) : [element.getBoundingClientRect()];
    return boxes.filter((box) => box.width >= 1 && box.height >= 1);
  }

  function hitTest(element: Element): { probed: number; covered: number; by: string[] } {
    let probed = 0;
    let covered = 0;
    const by = new Set<string>();
    for (const box of probeBoxes(element)) {
      for (const fx of fractions) {
        for (const fy of fractions) {
          const x = box.left + box.width * fx;
          const y = box.top + box.height * fy;
          if (x < 0 || y < 0 || x >= viewWidth || y >= viewHeight) continue;
          probed += 1;
          const hit = document.elementFromPoint(x, y);
          if (!hit || hit === element || element.contains(hit)) continue;
          covered += 1;
          by.add(
            hit.contains(element)
              ? `its own container ${describeElement(hit)} (the control is clipped there, or lets the pointer through)`
              : describeCover(hit),
          );
        }
      }
    }
    return { probed, covered, by: Array.from(by) };
  }

  if (mode === "focus") {
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused === root) return { control: null, repeat: false, probed: 0, covered: 0, by: [] };
    const store = window as unknown as { __layoutFocusSeen?: WeakSet<Element> };
    const seen = (store.__layoutFocusSeen ??= new WeakSet());
    const repeat = seen.has(focused);
    seen.add(focused);
    return { control: describeControl(focused), repeat, ...hitTest(focused) };
  }

  const controls = Array.from(document.querySelectorAll(CONTROLS)).filter(isVisible);

  const sidewaysPx = root.scrollWidth - viewWidth;
  const culprits: string[] = [];
  if (sidewaysPx > 0) {
    const sticksOut = (element: Element | null) => {
      if (!element || element === document.body) return false;
      const box = clippedBox(element);
      return box !== null && box.right > viewWidth + 0.5;
    };
    // A fixed box never widens the page (the floating decoration's icons reach past the edge inside one).
    const inFixed = (element: Element) => {
      for (let node: Element | null = element; node && node !== root; node = node.parentElement) {
        if (getComputedStyle(node).position === "fixed") return true;
      }
      return false;
    };
    for (const element of Array.from(document.body.querySelectorAll("*"))) {
      if (culprits.length === 3) break;
      if (sticksOut(element) && !sticksOut(element.parentElement) && !inFixed(element)) {
        culprits.push(`${describeElement(element)} reaches ${Math.round(element.getBoundingClientRect().right)} px`);
      }
    }
  }

  const small = controls
    .filter((element) => !inRunningText(element))
    .map((element) => ({ element, box: element.getBoundingClientRect() }))
    .filter(({ box }) => box.width < minTargetPx || box.height < minTargetPx)
    .map(({ element, box }) => ({
      control: describeControl(element),
      widthPx: Math.round(box.width * 10) / 10,
      heightPx: Math.round(box.height * 10) / 10,
    }));

  const end = Math.max(0, root.scrollHeight - viewHeight);
  const stops: number[] = [];
  for (let y = 0; y < end; y += Math.max(1, Math.floor(viewHeight / 2))) stops.push(y);
  stops.push(end);
  const coverings: Covering[] = [];
  for (const y of stops) {
    window.scrollTo({ top: y, left: 0, behavior: "instant" });
    const at = y === 0 ? "at the top" : y === end ? "scrolled to the end" : `scrolled to ${Math.round(window.scrollY)} px`;
    for (const element of controls) {
      const result = hitTest(element);
      if (result.covered > 0) coverings.push({ at, control: describeControl(element), ...result });
    }
  }
  window.scrollTo({ top: 0, left: 0, behavior: "instant" });

  return { sideways: { px: sidewaysPx, widthPx: viewWidth, culprits }, small, coverings };
}

function probe(page: Page, mode: ProbeRequest["mode"]): Promise<SweepFindings | FocusFinding> {
  const request: ProbeRequest = { mode, fractions: PROBE_FRACTIONS, minTargetPx: MIN_TARGET_PX };
  return page.evaluate(probeInPage, request);
}

function points(count: number): string {
  return `${count} ${count === 1 ? "point" : "points"}`;
}

/**
 * Sideways scrolling, small targets and covered controls on the page as it is now (hydrated). Scrolls
 * through the page (top, every half viewport, end) and leaves it at the top.
 * @returns one sentence per problem, e.g.
 *   `button "Secure Spot & Access Discord" is covered at 3 of 9 points by button "Pause background animation" (position: fixed), scrolled to the end`;
 *   the same control covered by the same thing at several scroll positions is one sentence
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  const findings = (await probe(page, "sweep")) as SweepFindings;
  const problems: string[] = [];
  const { sideways } = findings;
  if (sideways.px > 0) {
    const culprits = sideways.culprits.length > 0 ? `: ${sideways.culprits.join("; ")}` : "";
    problems.push(`the page scrolls sideways by ${sideways.px} CSS px in a ${sideways.widthPx} px wide viewport (WCAG 1.4.10)${culprits}`);
  }
  for (const target of findings.small) {
    problems.push(
      `${target.control} is ${target.widthPx}×${target.heightPx} CSS px, under the ${MIN_TARGET_PX}×${MIN_TARGET_PX} minimum (WCAG 2.5.8)`,
    );
  }
  const byControl = new Map<string, Covering[]>();
  for (const covering of findings.coverings) {
    const key = `${covering.control} by ${covering.by.join(", ")}`;
    byControl.set(key, [...(byControl.get(key) ?? []), covering]);
  }
  for (const coverings of byControl.values()) {
    const worst = coverings.reduce((most, next) => (next.covered / next.probed > most.covered / most.probed ? next : most));
    const where = coverings.map((covering) => covering.at).join(", ");
    problems.push(
      `${worst.control} is covered at ${worst.covered} of ${points(worst.probed)} by ${worst.by.join(" and ")} (${where}${coverings.length > 1 ? `; worst ${worst.at}` : ""})`,
    );
  }
  return problems;
}

/** Most Tab stops a page may have before the walk gives up (far above this site's). */
const MAX_TAB_STOPS = 40;

/**
 * Tab through a freshly loaded page as a keyboard visitor does, and after each press hit-test the
 * focused control: nothing may lie on any part of it (stricter than WCAG 2.4.11).
 * @returns one sentence per problem, e.g.
 *   `Tab stop 4: button "Secure Spot & Access Discord" has focus but is covered at 3 of 9 points by … (WCAG 2.4.11)`
 */
export async function focusProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (let stop = 1; stop <= MAX_TAB_STOPS; stop += 1) {
    await page.keyboard.press("Tab");
    const focus = (await probe(page, "focus")) as FocusFinding;
    if (focus.control === null || focus.repeat) return problems;
    if (focus.probed === 0) problems.push(`Tab stop ${stop}: ${focus.control} has focus but is not scrolled into view (WCAG 2.4.11)`);
    else if (focus.covered > 0) {
      problems.push(
        `Tab stop ${stop}: ${focus.control} has focus but is covered at ${focus.covered} of ${points(focus.probed)} by ${focus.by.join(" and ")} (WCAG 2.4.11)`,
      );
    }
  }
  problems.push(`focus never left the page or came round again after ${MAX_TAB_STOPS} Tab presses`);
  return problems;
}
