/**
 * The console's files as the build lists them (`public/console-files.json`, shared/console-files.ts), read through the
 * ASSETS binding: the paths the console's host serves besides the console page and its API (hosts.ts).
 */
import { CONSOLE_FILES_PATH, ConsoleFilesSchema } from "../../../shared/console-files";
import { log } from "../log";

/** Any host will do: the ASSETS binding serves by path. */
const ASSETS_ORIGIN = "https://assets.local";

const cache = new WeakMap<Fetcher, Promise<ReadonlySet<string>>>();

/**
 * The console's files (URL paths, exactly as the console page asks for them), kept per ASSETS binding for the
 * isolate's life, as the settings are (settings.ts). A list that cannot be read is no file at all (the console's
 * host then serves its page and API only) and its reason is logged; the read is tried again on the next request.
 * @returns the set of paths; empty when the build has no valid list
 */
export function consoleFiles(assets: Fetcher): Promise<ReadonlySet<string>> {
  let files = cache.get(assets);
  if (!files) {
    files = load(assets).catch((error: unknown) => {
      cache.delete(assets);
      log("console_files_unavailable", { reason: error instanceof Error ? error.message : String(error) });
      return new Set<string>();
    });
    cache.set(assets, files);
  }
  return files;
}

async function load(assets: Fetcher): Promise<ReadonlySet<string>> {
  const response = await assets.fetch(`${ASSETS_ORIGIN}${CONSOLE_FILES_PATH}`);
  if (!response.ok) throw new Error(`${CONSOLE_FILES_PATH} answered ${response.status}: build the site with the waitlist-api transport.`);
  const parsed = ConsoleFilesSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error(`${CONSOLE_FILES_PATH}: ${parsed.error.issues[0].message}`);
  return new Set(parsed.data.files);
}
