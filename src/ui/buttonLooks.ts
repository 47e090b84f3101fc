/**
 * The looks the buttons of the site share, as fragments a screen puts first in its own styled button (as
 * toastStyles.tsx does for the two toasters): a look adds no component of its own, so each button is still one
 * styled component. The primary look is in primaryButton.ts, so that a page without one does not load it. Every
 * button of the site has the page's font and a pointer (Button.tsx); each look states them itself, as a fragment
 * embedded in another costs the page's scripts more than the two declarations.
 */
import { css } from "styled-components";
import { theme } from "../styles/theme";

/** A choice beside others of equal weight (consent, leaderboard): outlined in the text colour, a phone's tap target. */
export const outlineButton = css`
  min-height: 44px;
  border: 1px solid ${theme.colors.text};
  border-radius: ${theme.radii.small};
  background: transparent;
  color: ${theme.colors.text};
  font: inherit;
  font-weight: 700;
  cursor: pointer;
`;
