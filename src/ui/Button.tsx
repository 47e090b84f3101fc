/**
 * The page primitives' buttons. One module each, so a page loads only the looks it shows: Button is the base every
 * button of the site builds on, the others are the looks used in more than one place.
 */
import styled from "styled-components";

/** A button in the page's font that shows a pointer; each screen adds its size and colours. */
export const Button = styled.button`
  font: inherit;
  cursor: pointer;
`;
