/**
 * The status page's check of a person's place in the giveaway draw, loaded only when they ask for it (its hashing
 * stays out of the page's first JavaScript): GET /api/status/draw with their status token, then their line's audit
 * path checked on their own device against the Merkle root of the published commitment, read from the site itself
 * (not from the answer, which could be wrong).
 */
import type { Commitment, DrawPlace } from "../../shared/api/draw";
import { fromHex } from "../../shared/giveaway/bytes";
import { STATUS_DRAW_ENDPOINT } from "../../shared/giveaway/commit";
import { pseudonymOf } from "../../shared/giveaway/pseudonym";
import { commitmentPath, leafBytes, listLine } from "../../shared/giveaway/list";
import { leafHash, verifyInclusion } from "../../shared/giveaway/merkle";

/** What the check finds: the place and whether its proof holds, or why there is none. */
export type PlaceCheck =
  { kind: "checked"; place: DrawPlace; proven: boolean } | { kind: "notPublished" } | { kind: "notInDraw" } | { kind: "failed" };

/**
 * Look up and check the person's place.
 * @param token the status page's token
 */
export async function checkDrawPlace(token: string): Promise<PlaceCheck> {
  try {
    const response = await fetch(STATUS_DRAW_ENDPOINT, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    if (response.status === 404) {
      const code = ((await response.json()) as { errors?: { code?: string }[] }).errors?.[0]?.code;
      return code === "not_in_draw" ? { kind: "notInDraw" } : { kind: "notPublished" };
    }
    if (!response.ok) return { kind: "failed" };
    const place = (await response.json()) as DrawPlace;
    const published = await fetch(commitmentPath(place.draw), { headers: { accept: "application/json" } });
    if (!published.ok) return { kind: "failed" };
    const commitment = (await published.json()) as Commitment;
    const leaf = leafHash(leafBytes(listLine(place)));
    const proven =
      place.pseudonym === (await pseudonymOf(place.draw, place.ticket)) &&
      place.n === commitment.n &&
      verifyInclusion(leaf, place.index, commitment.n, place.path.map(fromHex), fromHex(commitment.merkleRoot));
    return { kind: "checked", place, proven };
  } catch {
    return { kind: "failed" };
  }
}
