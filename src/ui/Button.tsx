/**
 * The page primitives' buttons: Button, the base every button of the site builds on, and the two looks of the parts
 * every page carries (the consent banner's choices, the decoration's pause). PrimaryButton has a module of its own, so
 * that a page without one does not load it.
 */
import styled from "styled-components";
import { theme } from "../styles/theme";

/** A button in the page's font that shows a pointer; each screen adds its size and colours. */
export const Button = styled.button`
  font: inherit;
  cursor: pointer;
`;

/** A choice beside others of equal weight (consent, leaderboard): outlined in the text colour, a phone's tap target. */
export const OutlineButton = styled(Button)`
  min-height: ${theme.controls.touch};
  border: ${theme.lines.border} solid ${theme.colors.text};
  border-radius: ${theme.radii.small};
  background: transparent;
  color: ${theme.colors.text};
  font-weight: 700;
`;

/** A small pill with an icon and a word (the decoration's pause): each use sets its own size and colours. */
export const ChipButton = styled(Button)`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  border: ${theme.lines.border} solid ${theme.colors.border};
  border-radius: ${theme.radii.pill};
`;
