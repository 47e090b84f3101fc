import styled from "styled-components";
import { theme } from "../styles/theme";

/** A word in place of content that is not there (yet): loading, nothing to show, no JavaScript. A dashed, empty box. */
export const Note = styled.p`
  display: grid;
  place-items: center;
  margin: 0;
  padding: ${theme.space.xxl};
  border: 1px dashed ${theme.colors.border};
  border-radius: ${theme.radii.medium};
  font-size: 1.05rem;
  font-weight: 600;
  text-align: center;
`;

/** A Note laid over the content it stands in for, which keeps its place so that nothing moves when it arrives. */
export const NoteCover = styled(Note)`
  position: absolute;
  inset: 0;
`;
