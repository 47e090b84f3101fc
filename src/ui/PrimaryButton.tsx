import styled from "styled-components";
import { theme } from "../styles/theme";
import { Button } from "./Button";

/** The accent gradient that marks the one thing to do on a card (send the signup, share the link); it lifts on hover. */
export const PrimaryButton = styled(Button)`
  border: 0;
  border-radius: ${theme.radii.small};
  background: linear-gradient(135deg, ${theme.colors.accent}, ${theme.colors.accentStrong});
  color: ${theme.colors.onAccent};
  font-weight: 800;
  transition: ${theme.transitions.lift};
  &:hover:not(:disabled) {
    transform: translateY(-1px);
  }
`;
