export { wrapPageElement, wrapRootElement } from "./src/root/wrappers";
