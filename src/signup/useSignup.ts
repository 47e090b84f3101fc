import { useCallback, useRef, useState } from "react";
import type { ProviderConfig } from "./client";
import { SignupNetworkError } from "./errors";
import type { runSignup } from "./signupEngine";
import type { Submission } from "./submission";
import type { SignupVerification } from "./turnstile";

/** What the form hears back from one signup. */
export interface SignupCallbacks {
  /** The signup went through. */
  onSuccess: () => void;
  /** It failed for good (after the retries that may help). */
  onError: (error: Error) => void;
  /** After either. */
  onSettled?: () => void;
}

/** The form's handle on its signup. */
export interface Signup {
  /** True from `mutate` until the signup has succeeded or failed for good. */
  isPending: boolean;
  /** Start loading the engine that sends and retries (idempotent); the form calls it when it is first used. */
  prepare: () => void;
  /** Send one signup. */
  mutate: (submission: Submission, callbacks: SignupCallbacks) => void;
}

/** The engine module, once loaded. */
interface Engine {
  runSignup: typeof runSignup;
}

/**
 * The signup, sent and retried by signupEngine.ts (the form stays submitting meanwhile). The engine
 * chunk is fetched by `prepare` on the form's first use, or at the latest by the submit; if it cannot
 * be fetched the signup fails as a network failure, and the visitor keeps what they typed.
 * @param verification the form's Turnstile widget, when it has one
 */
export function useSignup(provider: ProviderConfig, verification?: SignupVerification | null): Signup {
  const [isPending, setPending] = useState(false);
  const engine = useRef<Promise<Engine> | null>(null);
  // The latest settings, read by each attempt: a retry uses what the page has then.
  const settings = useRef({ provider, verification });
  settings.current = { provider, verification };

  const prepare = useCallback(() => {
    if (engine.current) return;
    const loading = import("./signupEngine");
    engine.current = loading;
    // A failed load is the submit's to report (as a network failure). Left unhandled, Gatsby would take the chunk
    // error for a new deploy and reload the page, losing what the visitor typed. Not kept: the next use tries again.
    loading.catch(() => {
      if (engine.current === loading) engine.current = null;
    });
  }, []);

  const mutate = useCallback(
    (submission: Submission, { onSuccess, onError, onSettled }: SignupCallbacks) => {
      setPending(true);
      prepare();
      const loading = engine.current ?? Promise.reject(new Error("The signup engine did not start loading."));
      loading
        .then(
          ({ runSignup }) => runSignup(() => settings.current, submission),
          (error: unknown) => {
            throw new SignupNetworkError("The signup engine could not be loaded.", { cause: error });
          },
        )
        .then(
          () => {
            setPending(false);
            onSuccess();
          },
          (error: unknown) => {
            setPending(false);
            onError(error instanceof Error ? error : new Error(String(error)));
          },
        )
        .finally(() => onSettled?.());
    },
    [prepare],
  );

  return { isPending, prepare, mutate };
}
