// vitest's optional types import jsdom, whose types pull the DOM library in over the Workers runtime's (the tests'
// tsconfig maps `jsdom` here); these tests never run in jsdom.
export {};
