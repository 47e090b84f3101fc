/** The ruled table's look, a fragment each screen puts first in its own styled table and gives its cells. */
import { css } from "styled-components";
import { theme } from "../styles/theme";

/** A table of rows ruled apart, the full width of its box; each screen sets its cells' size and alignment. */
export const ruledTable = css`
  width: 100%;
  border-collapse: collapse;
  th,
  td {
    border-bottom: 1px solid ${theme.colors.border};
  }
`;
