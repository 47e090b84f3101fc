/** One GET of the console's API as a view's state: loading, its answer, or the ConsoleError it failed with. */
import { useCallback, useEffect, useState } from "react";
import { ConsoleError, getConsole } from "./api";

export type AnswerState<T> = { kind: "loading" } | { kind: "ready"; answer: T } | { kind: "failed"; error: ConsoleError };

/**
 * Read `path` (again whenever it changes, or on `reload`); null reads nothing and stays loading.
 * @returns the state, a reload, and a setter for an answer the view changed in place (after an action)
 */
export function useAnswer<T>(path: string | null): {
  state: AnswerState<T>;
  reload: () => void;
  replace: (update: (answer: T) => T) => void;
} {
  const [state, setState] = useState<AnswerState<T>>({ kind: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setState({ kind: "loading" });
    getConsole<T>(path, controller.signal).then(
      (answer) => !controller.signal.aborted && setState({ kind: "ready", answer }),
      (error: unknown) =>
        !controller.signal.aborted &&
        setState({ kind: "failed", error: error instanceof ConsoleError ? error : new ConsoleError("unavailable", null) }),
    );
    return () => controller.abort();
  }, [path, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const replace = useCallback(
    (update: (answer: T) => T) =>
      setState((current) => (current.kind === "ready" ? { kind: "ready", answer: update(current.answer) } : current)),
    [],
  );
  return { state, reload, replace };
}
