/**
 * One call to the operator's console API of the bench's service, as the console's page makes it (its own Origin, JSON
 * bodies), signed in as the local operator: the answer, its time and the rows D1 read for it (`Server-Timing`).
 */
import { rowsReadOf } from "./referrals";

/** The console's local operator (the Access middleware lets them through outside production). */
export const OPERATOR_VARS = { CONSOLE_LOCAL_OPERATOR: "bench@example.com" };

/** What one call gave. */
export interface ConsoleCall<Answer> {
  status: number;
  answer: Answer;
  /** Wall-clock time from the request to the whole answer (ms). */
  ms: number;
  /** Rows D1 read for it, or null when the answer carried no Server-Timing. */
  rowsRead: number | null;
}

/**
 * Call `path` on the service at `origin`: a GET, or a POST of `body` as JSON.
 * @throws Error with the answer's start when it is not `expected` (default: any 2xx)
 */
export async function callConsole<Answer>(
  origin: string,
  path: string,
  { body, method = body === undefined ? "GET" : "POST", expected }: { body?: unknown; method?: string; expected?: number } = {},
): Promise<ConsoleCall<Answer>> {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { origin, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const ok = expected === undefined ? response.ok : response.status === expected;
  if (!ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return {
    status: response.status,
    answer: (text ? JSON.parse(text) : null) as Answer,
    ms,
    rowsRead: rowsReadOf(Object.fromEntries(response.headers)),
  };
}
