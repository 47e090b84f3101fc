import path from "node:path";
import { formatContentErrors, loadContentFile } from "../../src/content/load";
import { FIXTURE_FILE } from "../support/content";

describe("content files", () => {
  it.each([
    ["content/site.yaml", path.join(__dirname, "..", "..", "content", "site.yaml")],
    ["the test fixture", FIXTURE_FILE],
  ])("%s passes the content schema", (_name, file) => {
    const result = loadContentFile(file);
    expect(result.ok ? "valid" : formatContentErrors(result.errors)).toBe("valid");
  });
});
