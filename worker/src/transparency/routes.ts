/**
 * The transparency page's files on the site's host, from the TRANSPARENCY bucket (report.ts writes them): the report,
 * the latest checkpoint and every earlier one by its size. Anything else under /transparency/ is the static build's
 * (the page itself).
 */
import { Hono, type Context } from "hono";
import { TRANSPARENCY_KEYS, TRANSPARENCY_PATHS } from "../../../shared/transparency";
import type { AppEnv } from "../env";
import { notFoundPage } from "../http";
import { rateLimited, withinLimit } from "../rate-limit";

/** A published file's cache: five minutes, the cron's period. */
const PUBLISHED_CACHE = "public, max-age=300";

/** The R2 key a path names, or null for a path of the static build. */
function keyOf(path: string): string | null {
  if (path === TRANSPARENCY_PATHS.report) return TRANSPARENCY_KEYS.report;
  if (path === TRANSPARENCY_PATHS.checkpoint) return TRANSPARENCY_KEYS.checkpoint;
  const size = new RegExp(`^${TRANSPARENCY_PATHS.checkpoints}(0|[1-9][0-9]{0,15})\\.txt$`).exec(path)?.[1];
  return size === undefined ? null : TRANSPARENCY_KEYS.checkpointAt(Number(size));
}

/**
 * Answer GET or HEAD of a transparency file: 200 from R2, 304 for a matching If-None-Match, the site's 404 page when
 * it is not written yet, 429 past DRAW_FILES_LIMITER (the published files' one limit, counted before R2 is read); the
 * static build for any other path.
 */
async function handleTransparencyFile(c: Context<AppEnv>): Promise<Response> {
  const key = keyOf(c.req.path);
  if (key === null) return c.env.ASSETS.fetch(c.req.raw);
  if (!(await withinLimit(c.env, "DRAW_FILES_LIMITER", c.req.raw)))
    return rateLimited("DRAW_FILES_LIMITER", "Too many reads of the published files from this network.");
  const object = await c.env.TRANSPARENCY.get(key);
  if (!object) return notFoundPage(c.env, new URL(c.req.url));
  const headers = new Headers({ etag: object.httpEtag, "cache-control": PUBLISHED_CACHE });
  object.writeHttpMetadata(headers);
  if (c.req.header("if-none-match") === object.httpEtag) return new Response(null, { status: 304, headers });
  return new Response(c.req.method === "HEAD" ? null : object.body, { status: 200, headers });
}

export const transparency = new Hono<AppEnv>().on(["GET", "HEAD"], "/transparency/*", handleTransparencyFile);
