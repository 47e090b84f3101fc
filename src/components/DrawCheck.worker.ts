/**
 * The Verify button's check, run off the page's main thread in a Web Worker that DrawCheck starts on the click (so
 * neither this nor @noble/curves is in the page's first JavaScript): the shared check of a format 2 draw
 * (shared/giveaway/commitment.ts) over the published list, streamed once and read back by Range requests, posting the
 * bytes read as it goes, then the report. Stop terminates the worker, its requests with it.
 */
import type { DrandChain } from "../../shared/giveaway/chains";
import { verifyCommitment, type CommitmentReport, type ListSource } from "../../shared/giveaway/commitment";
import type { DrawRules } from "../../shared/giveaway/rules";

/** What the page sends, once: the commitment as published, the rules and chain the site publishes, the list's URL. */
export interface DrawCheckRequest {
  commitment: unknown;
  trusted: { chain: DrandChain; rules: DrawRules };
  /** Absolute: a worker resolves a path against its script's address, not the page's. */
  listUrl: string;
}

/** What the worker answers: the list's bytes read so far (now and then), then the report or that it could not run. */
export type DrawCheckMessage = { kind: "progress"; bytes: number } | { kind: "done"; report: CommitmentReport } | { kind: "failed" };

/** The part of a dedicated worker's global scope this uses (the project's TypeScript has the DOM's types, not a worker's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<DrawCheckRequest>) => void) | null;
  postMessage(message: DrawCheckMessage): void;
}

/** The published list as the check reads it: streamed once, then blocks read back by Range requests. */
function listSource(listUrl: string): ListSource {
  return {
    async *chunks() {
      const response = await fetch(listUrl);
      if (!response.ok || !response.body) throw new Error(`${listUrl} answered ${response.status}`);
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
    },
    async range(offset, length) {
      const response = await fetch(listUrl, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
      if (response.status === 416) return new Uint8Array(0);
      if (response.status !== 206) throw new Error(`${listUrl} answered ${response.status} to a Range request`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

const scope = self as unknown as WorkerScope;

/**
 * The least time between two progress messages (ms): each one renders the page again, so the bar moves smoothly
 * without a render for every chunk of the list.
 */
const PROGRESS_EVERY_MS = 100;

scope.onmessage = ({ data: { commitment, trusted, listUrl } }) => {
  let postedAt = -Infinity;
  const onProgress = (bytes: number) => {
    if (performance.now() - postedAt < PROGRESS_EVERY_MS) return;
    postedAt = performance.now();
    scope.postMessage({ kind: "progress", bytes });
  };
  verifyCommitment(commitment, trusted, listSource(listUrl), { onProgress }).then(
    (report) => scope.postMessage({ kind: "done", report }),
    () => scope.postMessage({ kind: "failed" }),
  );
};
