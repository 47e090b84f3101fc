import styled from "styled-components";
import { theme } from "../styles/theme";
import { Button } from "./Button";

/** A small pill with an icon and a word (a badge, the decoration's pause): each use sets its own size and colours. */
export const ChipButton = styled(Button)`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  border: ${theme.lines.border} solid ${theme.colors.border};
  border-radius: ${theme.radii.pill};
`;
