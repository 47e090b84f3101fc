export { wrapPageElement, wrapRootElement } from "./src/root/wrappers";
export { replaceHydrateFunction } from "./src/root/hydrate";
export { onPreRouteUpdate } from "./src/root/pageView";
