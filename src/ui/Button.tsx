/** A plain button in the page's font that shows a pointer; each screen adds its size and colours (the shared looks: buttonLooks.ts). */
import styled from "styled-components";
import { buttonBase } from "./buttonLooks";

export const Button = styled.button`
  ${buttonBase}
`;
