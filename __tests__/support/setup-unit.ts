import "@testing-library/jest-dom";
import "jest-styled-components";

// jsdom has no ResizeObserver; Radix's positioning asks for one when a tooltip opens.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
