/**
 * Where a site's giveaway draw file lives: `giveaway/draw.json` beside its content file (content/giveaway/draw.json for
 * the site, the fixture's own for the tests). The draw command writes it; the build turns it into /giveaway/draw/.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

/** The draw file of the site whose content is `contentFile`. */
export function drawFileOf(contentFile: string): string {
  return path.join(path.dirname(contentFile), "giveaway", "draw.json");
}

/**
 * The draw file's text, or null while no draw is committed (no file).
 * @throws Error when the file is there but is not JSON (a damaged file must stop the build, not be published)
 */
export async function readDrawFile(contentFile: string): Promise<string | null> {
  const file = drawFileOf(contentFile);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return text;
}
