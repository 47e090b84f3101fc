/** The status page's plain parts, shared by its sections: an outlined button and a failure note (src/ui's looks). */
import styled from "styled-components";
import { theme } from "../styles/theme";
import { outlineButton } from "../ui/buttonLooks";
import { errorNote } from "../ui/errorNote";

export const OutlineButton = styled.button`
  ${outlineButton}
  padding: ${theme.space.sm} ${theme.space.xl};
  &:disabled {
    cursor: default;
    opacity: 0.6;
  }
  &:focus-visible {
    outline: 3px solid ${theme.colors.focus};
    outline-offset: 2px;
  }
`;

export const Failure = styled.p`
  ${errorNote}
  padding: ${theme.space.sm} ${theme.space.md};
`;
