// Decap CMS starts itself as soon as it loads unless this is set; editor.js starts it
// once our content format is registered.
window.CMS_MANUAL_INIT = true;
