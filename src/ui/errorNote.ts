/** The failure note's look, a fragment each screen puts first in its own styled element and gives its padding. */
import { css } from "styled-components";
import { theme } from "../styles/theme";

/** A failure the reader should act on (a request that failed): the error colours, framed; each screen sets its padding. */
export const errorNote = css`
  margin: 0;
  border: 1px solid ${theme.colors.errorBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.errorSurface};
  color: ${theme.colors.errorText};
`;
