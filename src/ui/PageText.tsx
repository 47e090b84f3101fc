/** The text parts of a page's card: its heading, the sentence under it, and the link back to the signup page. */
import { Link } from "gatsby";
import styled from "styled-components";
import { theme } from "../styles/theme";

export const PageHeading = styled.h1`
  margin: 0;
  font-size: clamp(1.75rem, 6vw, 2.4rem);
`;

export const PageIntro = styled.p`
  margin: 0;
  max-width: 46ch;
  color: ${theme.colors.textMuted};
`;

export const PageLink = styled(Link)`
  font-weight: 700;
  text-underline-offset: 3px;
`;
