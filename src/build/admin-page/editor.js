/**
 * Starts the web editor on /admin/ once our content format is registered (the page
 * sets CMS_MANUAL_INIT so that Decap CMS waits for this). Plain JavaScript, served as it is.
 */
import * as YAML from "./yaml/index.js";
import { contentFormat } from "./content-format.js";
import { CONTENT_FORMAT, KEY_ORDER } from "./key-order.js";

window.CMS.registerCustomFormat(CONTENT_FORMAT, "yaml", contentFormat(YAML, KEY_ORDER));
window.CMS.init();
