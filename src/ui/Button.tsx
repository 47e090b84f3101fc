/** A plain button in the page's font that shows a pointer; each screen adds its size and colours (the shared looks: buttonLooks.ts). */
import styled from "styled-components";

export const Button = styled.button`
  font: inherit;
  cursor: pointer;
`;
