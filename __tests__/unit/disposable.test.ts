import domains from "disposable-email-domains/index.json";
import { isDisposableAddress } from "../../worker/src/bots/disposable";

describe("isDisposableAddress", () => {
  it("relies on a sorted list: the package keeps its domains in code-unit order (the lookup is a binary search)", () => {
    const unsorted = domains.findIndex((domain, index) => index > 0 && !(domains[index - 1] < domain));
    expect(unsorted).toBe(-1);
  });

  it("finds every domain of the package's list", () => {
    for (const domain of [domains[0], domains[Math.floor(domains.length / 2)], domains.at(-1) ?? ""])
      expect(isDisposableAddress(`x@${domain}`)).toBe(true);
  });

  it("knows a disposable domain whatever its case", () => {
    expect(isDisposableAddress("someone@Mailinator.COM")).toBe(true);
  });

  it("a trailing dot does not hide a disposable domain", () => {
    expect(isDisposableAddress("a.n.n@mailinator.com.")).toBe(true);
    expect(isDisposableAddress("a.n.n@MAILINATOR.com.")).toBe(true);
    expect(isDisposableAddress("me@anything.33mail.com.")).toBe(true);
  });

  it("fullwidth letters do not hide a disposable domain", () => {
    expect(isDisposableAddress("ann@ｍａｉｌｉｎａｔｏｒ.com")).toBe(true);
  });

  it("refuses every subdomain of a wildcard domain", () => {
    expect(isDisposableAddress("me@33mail.com")).toBe(true);
    expect(isDisposableAddress("me@anything.33mail.com")).toBe(true);
  });

  it("lets ordinary providers and company domains through", () => {
    for (const email of ["ada@gmail.com", "ada@outlook.com", "ada@firm.co.uk", "ada@example.com"])
      expect(isDisposableAddress(email)).toBe(false);
  });
});
