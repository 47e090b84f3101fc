/**
 * Non-text contrast (WCAG 1.4.11; product rule 23) where axe does not look: the
 * outline that shows a visitor where each text field is. Text contrast is axe's
 * color-contrast rule (a11y-axe.test.ts).
 */
import { theme } from "../../src/styles/theme";
import { expect, gotoHydrated, test } from "./support/fixtures";
import { contrastRatio } from "./support/focus";

/** WCAG 1.4.11: the boundary of a control needs 3:1 against adjacent colours. */
const NON_TEXT_CONTRAST = 3;

/** `rgba(r, g, b, a)` laid over an opaque colour, as the screen shows it. */
function over(color: string, backdrop: string): string {
  const [r, g, b, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
  const [br, bg, bb] = [1, 3, 5].map((i) => parseInt(backdrop.slice(i, i + 2), 16));
  const mix = (top: number, bottom: number) => Math.round(top * a + bottom * (1 - a));
  return `rgb(${mix(r, br)}, ${mix(g, bg)}, ${mix(b, bb)})`;
}

test("draws each text field's outline at 3:1 against the field and the card around it, wherever the page glow is", async ({ page }) => {
  await gotoHydrated(page, "/");
  const inputs = page.locator("form input:not([type=hidden]):not([tabindex='-1'])");
  const fields = await inputs.evaluateAll((inputs) =>
    inputs.map((input) => {
      // The nearest ancestor with a background of its own: the card.
      let card = input.parentElement;
      while (card && getComputedStyle(card).backgroundColor === "rgba(0, 0, 0, 0)") card = card.parentElement;
      return {
        name: input.getAttribute("name"),
        border: getComputedStyle(input).borderTopColor,
        fill: getComputedStyle(input).backgroundColor,
        card: card ? getComputedStyle(card).backgroundColor : "none",
      };
    }),
  );
  expect(fields.map((f) => f.name)).toEqual(["email", "first_name", "last_name"]);

  // The card is translucent over the page's gradient, which runs from the glow to the background colour.
  const ratios = fields.flatMap((field) =>
    [theme.colors.background, theme.colors.backgroundGlow].flatMap((backdrop) => [
      { field: field.name, against: "field fill", ratio: contrastRatio(field.border, over(field.fill, backdrop)) },
      { field: field.name, against: `card over ${backdrop}`, ratio: contrastRatio(field.border, over(field.card, backdrop)) },
    ]),
  );
  expect(ratios.filter((r) => r.ratio < NON_TEXT_CONTRAST)).toEqual([]);
});
