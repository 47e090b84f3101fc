import styled from "styled-components";
import { theme } from "../styles/theme";

/** The look of a failure the reader should act on (a request that failed): the error colours, framed. */
export const ErrorNote = styled.div`
  margin: 0;
  border: ${theme.lines.border} solid ${theme.colors.errorBorder};
  border-radius: ${theme.radii.small};
  background: ${theme.colors.errorSurface};
  color: ${theme.colors.errorText};
`;
