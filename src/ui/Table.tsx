import styled from "styled-components";
import { theme } from "../styles/theme";

/** A table of rows ruled apart, the full width of its box; each screen sets its cells' size and alignment. */
export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  th,
  td {
    border-bottom: ${theme.lines.border} solid ${theme.colors.border};
  }
`;
