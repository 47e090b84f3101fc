import "styled-components";
import type { Theme } from "./theme";

declare module "styled-components" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- styled-components types its theme by declaration merging into this interface, the way its docs show
  export interface DefaultTheme extends Theme {}
}
