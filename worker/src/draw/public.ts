/**
 * The published draw, read by anyone: the list and the commitment from R2 at /giveaway/draw/<id>/entrants.txt and
 * /giveaway/draw/<id>/draw.json (answering Range requests, so a page finds one line by binary search), every other
 * path under /giveaway/draw/ from the static build; and GET /api/status/draw, a person's place in the draw with the
 * audit path of their line, by their status token.
 */
import type { Context } from "hono";
import type { DrawPlace } from "../../../shared/api/draw";
import { fromHex, toHex } from "../../../shared/giveaway/bytes";
import { pseudonymOf } from "../../../shared/giveaway/draw-file";
import { findLine, LINE_BYTES, LineSplitter, listPath } from "../../../shared/giveaway/list";
import { auditPath, leafHash } from "../../../shared/giveaway/merkle";
import type { AppEnv } from "../env";
import { errorResponse, jsonResponse, notFoundPage } from "../http";
import { rateLimited, withinLimit } from "../rate-limit";
import { drawKeys, drawRow, partsOf } from "./job";
import { listRange } from "./run";

/** A published file's cache: a minute, so a drawn result shows soon after it is written. */
const PUBLISHED_CACHE = "public, max-age=60";

/**
 * Answer GET /giveaway/draw/<id>/<file>: 200 or 206 (a Range request) from R2, 304 for a matching If-None-Match, 416
 * for a range outside the file, 404 when the draw is not published, 429 past DRAW_FILES_LIMITER for the client
 * network (counted before R2 is read); the static build for any other path.
 */
export async function handlePublished(c: Context<AppEnv>): Promise<Response> {
  const match = /^\/giveaway\/draw\/([a-z][a-z0-9-]{0,39})\/(entrants\.txt|draw\.json)$/.exec(c.req.path);
  if (!match) return c.env.ASSETS.fetch(c.req.raw);
  if (!(await withinLimit(c.env, "DRAW_FILES_LIMITER", c.req.raw)))
    return rateLimited("DRAW_FILES_LIMITER", "Too many reads of the published draws' files from this network.");
  const [, draw, file] = match;
  const key = file === "draw.json" ? drawKeys.commitment(draw) : drawKeys.list(draw);
  const head = await c.env.DRAWS.head(key);
  if (!head) return notFoundPage(c.env, new URL(c.req.url));
  const headers = new Headers({ etag: head.httpEtag, "cache-control": PUBLISHED_CACHE, "accept-ranges": "bytes" });
  head.writeHttpMetadata(headers);
  if (c.req.header("if-none-match") === head.httpEtag) return new Response(null, { status: 304, headers });
  const range = parseRange(c.req.header("range"), head.size);
  if (range === "unsatisfiable") {
    headers.set("content-range", `bytes */${head.size}`);
    return new Response(null, { status: 416, headers });
  }
  const object = await c.env.DRAWS.get(key, range ? { range } : {});
  if (!object) return new Response(null, { status: 404 });
  if (!range) {
    headers.set("content-length", String(head.size));
    return new Response(c.req.method === "HEAD" ? null : object.body, { status: 200, headers });
  }
  headers.set("content-range", `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
  headers.set("content-length", String(range.length));
  return new Response(c.req.method === "HEAD" ? null : object.body, { status: 206, headers });
}

/**
 * One `bytes=a-b`, `bytes=a-` or `bytes=-n` range of a file of `size` bytes (RFC 9110 §14.1.2); several ranges are
 * answered whole, as a server may.
 * @returns undefined for no (or an unparsed) Range header, "unsatisfiable" for a range past the end
 */
function parseRange(header: string | undefined, size: number): { offset: number; length: number } | "unsatisfiable" | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const length = Math.min(Number(match[2]), size);
    return length === 0 ? "unsatisfiable" : { offset: size - length, length };
  }
  const offset = Number(match[1]);
  if (offset >= size) return "unsatisfiable";
  const last = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return last < offset ? "unsatisfiable" : { offset, length: last - offset + 1 };
}

/** Why GET /api/status/draw finds no place. */
export const PLACE_REFUSAL = { notPublished: "draw_not_published", notInDraw: "not_in_draw" } as const;

/**
 * Answer GET /api/status/draw (needs statusTokenHolder): 200 with the person's ticket, line, entries and audit path in
 * the published draw; 404 before the draw is published, or when the person is not in it. Reads their line by binary
 * search in the list (about 20 small reads at a million lines) and their part of the list for the path's lower half.
 */
export async function handleDrawPlace(c: Context<AppEnv>): Promise<Response> {
  const { settings } = c.var;
  const row = await drawRow(c.env.DB, settings.draw.id);
  if (!row || (row.state !== "published" && row.state !== "drawn") || row.merkle_root === null)
    return errorResponse([{ status: 404, code: PLACE_REFUSAL.notPublished, detail: "The draw's list is not published yet." }]);
  const holder = await c.env.DB.prepare("SELECT draw_ticket FROM signups WHERE id = ?1")
    .bind(c.var.statusHolder.person.id)
    .first<{ draw_ticket: string | null }>();
  const ticket = holder?.draw_ticket ?? null;
  const pseudonym = ticket === null ? null : await pseudonymOf(row.id, ticket);
  const found =
    pseudonym === null ? null : await findLine((index) => listRange(c.env, row.id, index * LINE_BYTES, LINE_BYTES), row.n, pseudonym);
  if (ticket === null || found === null)
    return errorResponse([{ status: 404, code: PLACE_REFUSAL.notInDraw, detail: "You are not in this draw's list." }]);
  const part = Math.floor(found.index / row.part_lines);
  const object = await c.env.DRAWS.get(drawKeys.part(row.id, part));
  if (!object) throw new Error(`part ${part} of draw ${row.id} is missing`);
  const leaves: Uint8Array[] = [];
  const splitter = new LineSplitter((line) => leaves.push(leafHash(line.subarray(0, LINE_BYTES - 1))));
  splitter.push(new Uint8Array(await object.arrayBuffer()));
  splitter.end();
  const parts = await partsOf(c.env.DB, row.id);
  const path = [
    ...auditPath(found.index - part * row.part_lines, leaves),
    ...(parts.length > 1
      ? auditPath(
          part,
          parts.map(({ root }) => fromHex(root)),
        )
      : []),
  ];
  const answer: DrawPlace = {
    draw: row.id,
    ticket,
    pseudonym: found.entrant.pseudonym,
    index: found.index,
    entries: found.entrant.entries,
    path: path.map(toHex),
    n: row.n,
    merkleRoot: row.merkle_root,
    listUrl: listPath(row.id),
  };
  return jsonResponse(200, answer, { "cache-control": "no-store" });
}
