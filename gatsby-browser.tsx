export { wrapPageElement, wrapRootElement } from "./src/app/wrappers";
export { replaceHydrateFunction } from "./src/app/hydrate";
export { onPreRouteUpdate } from "./src/lib/pageView";
