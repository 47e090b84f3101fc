/**
 * The console's files: what the console's host serves besides the console page and its API (worker/src/hosts.ts).
 * The waitlist service's build lists them in `public/console-files.json` (src/build/consoleFiles.ts): the scripts the
 * console page runs (Gatsby's runtime, the page's component, the console app and the chunks they share), the page data
 * Gatsby reads for it, and the files its head links (icons, manifest). The Worker refuses every other path on that
 * host, so no public page, nor a script or page data of one, is ever served where an operator is signed in. The file
 * names are public already (the site serves the files).
 */
import { z } from "zod";

/** The file's path in the build output (`public/`), which is also its URL path. */
export const CONSOLE_FILES_PATH = "/console-files.json";

/** The file's shape: `{ "files": ["/app-<hash>.js", …] }`, each a URL path as the console page asks for it. */
export const ConsoleFilesSchema = z.object(
  {
    files: z.array(z.string().startsWith("/", { error: "files holds URL paths, each starting with /." }), {
      error: "files must be a list of URL paths (rebuild the site).",
    }),
  },
  { error: "console-files.json holds { files } (rebuild the site)." },
);

/** The console's files, as the build lists them. */
export type ConsoleFiles = z.infer<typeof ConsoleFilesSchema>;
