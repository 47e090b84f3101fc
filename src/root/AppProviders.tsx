/**
 * Providers around the whole app, mounted once by `wrapRootElement`
 * (gatsby-browser.tsx and gatsby-ssr.tsx): theme and global styles, the query
 * client, the toast queue and the tooltip defaults of spec §9.
 */
import React, { useState } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import * as Tooltip from "@radix-ui/react-tooltip";
import { ThemeProvider } from "styled-components";
import { createQueryClient } from "../signup/queryClient";
import { GlobalStyle } from "../styles/GlobalStyle";
import { theme } from "../styles/theme";
import { ToastProvider } from "../toasts/ToastProvider";

/** Spec §9: a tooltip opens after the pointer rests this long (ms). */
export const TOOLTIP_DELAY_MS = 700;
/** Spec §9: moving between triggers within this time opens the next one at once (ms). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** Wraps `children` in every app-wide provider. */
export function AppProviders({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
            {children}
          </Tooltip.Provider>
        </ToastProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
