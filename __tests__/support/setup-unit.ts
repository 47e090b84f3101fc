import "@testing-library/jest-dom";
import { configure } from "@testing-library/react";
import "jest-styled-components";

// jsdom has no ResizeObserver; Radix's positioning asks for one when a tooltip opens.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

// The waits a loaded 2-core machine needs, with a jsdom file on each core, said once (ms): jest's 5 s per test and
// Testing Library's 1 s for a `findBy…` failed there while a lazily loaded part (the console, a tooltip) arrived.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });
