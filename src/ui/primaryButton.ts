/** The primary button's look, a fragment (see buttonLooks.ts): only the pages that have one load it. */
import { css } from "styled-components";
import { theme } from "../styles/theme";

/** The accent gradient that marks the one thing to do on a card (send the signup, share the link); it lifts on hover. */
export const primaryButton = css`
  border: 0;
  border-radius: ${theme.radii.small};
  background: linear-gradient(135deg, ${theme.colors.accent}, ${theme.colors.accentStrong});
  color: ${theme.colors.onAccent};
  font: inherit;
  font-weight: 800;
  cursor: pointer;
  transition: transform 120ms ease-out;
  &:hover:not(:disabled) {
    transform: translateY(-1px);
  }
`;
