export { wrapPageElement, wrapRootElement } from "./src/root/wrappers";
export { replaceHydrateFunction } from "./src/root/hydrate";
