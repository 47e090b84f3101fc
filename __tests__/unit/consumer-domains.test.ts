import domains from "free-email-domains/domains.json";
import { isConsumerDomain } from "../../worker/src/bots/consumer-domains";

describe("isConsumerDomain", () => {
  it("relies on a sorted list: the package keeps its domains in code-unit order (the lookup is a binary search)", () => {
    const unsorted = domains.findIndex((domain, index) => index > 0 && !(domains[index - 1] < domain));
    expect(unsorted).toBe(-1);
  });

  it("knows the large consumer providers, where many unrelated people share a domain", () => {
    for (const domain of ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me"]) expect(isConsumerDomain(domain)).toBe(true);
  });

  it("does not take a company's or a catch-all domain for a consumer provider", () => {
    for (const domain of ["firm.co.uk", "pickfund-bonus.io", "example.com"]) expect(isConsumerDomain(domain)).toBe(false);
  });
});
