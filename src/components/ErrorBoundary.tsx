import React, { Suspense } from "react";

// Loaded only when a page actually fails: most visitors never download it.
const ErrorScreen = React.lazy(() => import("./ErrorScreen"));

export interface ErrorBoundaryProps {
  /** Heading of the error screen (content/site.yaml → errorScreen.title). */
  title: string;
  /** Browser tab title while the error screen shows. */
  pageTitle: string;
  children: React.ReactNode;
}

interface State {
  error: Error | null;
}

/** Shows the error screen (product rule 5) instead of a blank page; keyed by path, so navigating away resets it. */
export class ErrorBoundary extends React.Component<ErrorBoundaryProps, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: React.ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Suspense fallback={null}>
        <ErrorScreen title={this.props.title} pageTitle={this.props.pageTitle} message={error.message} />
      </Suspense>
    );
  }
}
