/** Live preview in `npm run develop`: watches the site file and its campaigns folder. Build-time only. */
// A static named import: Gatsby compiles gatsby-node with Parcel, which turned `(await import("chokidar")).default` into undefined.
import { watch, type FSWatcher } from "chokidar";
import path from "node:path";
import { campaignsFolderFor } from "./campaigns";

/** How long a file must stay unchanged before it is read (ms): editors write a file in several steps. */
export const SAVE_SETTLE_MS = 100;

/**
 * Call `onChange` with the absolute path of each content file that is saved, added or deleted.
 * @param siteFile absolute; its campaigns folder is watched too, even before it exists
 * @returns the watcher (close it to stop)
 */
export function watchContentFiles(siteFile: string, onChange: (file: string) => void): FSWatcher {
  const watcher = watch([siteFile, campaignsFolderFor(siteFile)], {
    ignoreInitial: true,
    awaitWriteFinish: { stabilityThreshold: SAVE_SETTLE_MS },
  });
  // "add" too: editors that save atomically replace the file instead of changing it.
  watcher.on("all", (event, changed) => {
    if (event !== "change" && event !== "add" && event !== "unlink") return;
    const file = path.resolve(changed);
    if (file === path.resolve(siteFile) || /\.ya?ml$/.test(file)) onChange(file);
  });
  return watcher;
}
