import styled from "styled-components";
import { theme } from "../styles/theme";
import { Button } from "./Button";

/** A choice beside others of equal weight (consent, leaderboard): outlined in the text colour, a phone's tap target. */
export const OutlineButton = styled(Button)`
  min-height: ${theme.controls.touch};
  border: ${theme.lines.border} solid ${theme.colors.text};
  border-radius: ${theme.radii.small};
  background: transparent;
  color: ${theme.colors.text};
  font-weight: 700;
`;
