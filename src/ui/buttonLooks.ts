/**
 * The looks the buttons of the site share, as fragments a screen puts first in its own styled button (as
 * toastStyles.tsx does for the two toasters): a look adds no component of its own, so each button is still one
 * styled component. The primary look is in primaryButton.ts, so that a page without one does not load it.
 */
import { css } from "styled-components";
import { theme } from "../styles/theme";

/** What every button of the site has: the page's font and a pointer. */
export const buttonBase = css`
  font: inherit;
  cursor: pointer;
`;

/** A choice beside others of equal weight (consent, leaderboard): outlined in the text colour, a phone's tap target. */
export const outlineButton = css`
  ${buttonBase}
  min-height: 44px;
  border: 1px solid ${theme.colors.text};
  border-radius: ${theme.radii.small};
  background: transparent;
  color: ${theme.colors.text};
  font-weight: 700;
`;
