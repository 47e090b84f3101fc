/**
 * The Turnstile widget's box, prerendered at the widget's full height so its arrival moves nothing; the
 * script loads after the first paint so it never competes with the LCP.
 */
import { useEffect, useRef } from "react";
import styled from "styled-components";
import { afterFirstPaint, PAINT_WAIT_LIMIT_MS } from "../lib/afterFirstPaint";
import { loadTurnstileScript, TURNSTILE_WIDGET_HEIGHT_PX, type TurnstileChallenge } from "../signup/turnstile";

export interface TurnstileWidgetProps {
  /** The form's Turnstile state, which the signup asks for tokens. */
  challenge: TurnstileChallenge;
  siteKey: string;
  /** Cloudflare's script, or the build's override (derived.turnstileScriptUrl). */
  scriptUrl: string;
}

/** The widget's reserved box; the widget appears in it once Cloudflare's script has loaded after the first paint. */
export function TurnstileWidget({ challenge, siteKey, scriptUrl }: TurnstileWidgetProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let mounted = true;
    afterFirstPaint(() => {
      loadTurnstileScript(scriptUrl).then(
        (api) => {
          if (mounted && box.current) challenge.mount(api, box.current, siteKey);
        },
        () => {
          // Blocked or offline: attempts go without a token, and the service says whether it needs one.
          if (mounted) challenge.fail();
        },
      );
    }, PAINT_WAIT_LIMIT_MS);
    return () => {
      mounted = false;
      challenge.unmount();
    };
  }, [challenge, siteKey, scriptUrl]);
  return <Box ref={box} data-turnstile-box="" />;
}

const Box = styled.div`
  width: 100%;
  min-height: ${TURNSTILE_WIDGET_HEIGHT_PX}px;
`;
