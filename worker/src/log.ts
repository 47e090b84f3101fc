/** The Worker's log: one JSON line per event with ids, counts, codes and reasons; never an address or a name. */

/** What a log line may carry besides its event. */
export type LogFields = Record<string, string | number | boolean | null>;

/** Write one line: `{"event": …, …fields}`. */
export function log(event: string, fields: LogFields = {}): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/** An error's name for the log; its message could quote the request, and so an address. */
export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** Where an error was thrown: up to five stack frames, without the first line (the message). */
export function stackFrames(error: unknown): string {
  return error instanceof Error && error.stack ? error.stack.split("\n").slice(1, 6).join(" | ").trim() : "";
}
