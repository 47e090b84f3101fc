/**
 * `npm run deploy`'s hold on the settings only developers set: it refuses invitation links to another origin than
 * wrangler.jsonc's PRODUCT_SIGNUP_ORIGIN (scripts/service/product-origin.ts). Nothing is built or deployed.
 */
import path from "node:path";
import { productOriginProblem } from "../../scripts/service/product-origin";
import { PROJECT_DIR } from "../../scripts/lib/gatsby-build";
import type { ServiceSettings } from "../../shared/service-settings";
import { serviceSettings } from "../../src/build/serviceSettings";
import { loadContentFile } from "../../src/content/load";

/** The build of the shipped content/site.yaml, as service-settings.json has it. */
function shippedSettings(): ServiceSettings {
  const loaded = loadContentFile(path.join(PROJECT_DIR, "content", "site.yaml"));
  if (!loaded.ok) throw new Error("content/site.yaml does not load");
  return serviceSettings(loaded.content, [{ path: "/", source: "" }]) as ServiceSettings;
}

const SHIPPED = shippedSettings();

/** wrangler.jsonc's text with PRODUCT_SIGNUP_ORIGIN set to `origin`. */
const configWith = (origin: string) => `{ "vars": { "ENVIRONMENT": "production", "PRODUCT_SIGNUP_ORIGIN": "${origin}" } }`;
const withProductUrl = (productSignupUrl: string) => ({ launch: { ...SHIPPED.launch, productSignupUrl } });

describe("the invitation link's origin", () => {
  it("deploy refuses an invitation origin other than PRODUCT_SIGNUP_ORIGIN", () => {
    const problem = productOriginProblem(configWith("https://app.pickfund.example"), withProductUrl("https://collector.example/join"));
    expect(problem).toContain("content/site.yaml's launch.productSignupUrl sends every invitation code to https://collector.example");
    expect(problem).toContain("wrangler.jsonc's vars.PRODUCT_SIGNUP_ORIGIN is https://app.pickfund.example");
    expect(problem).toContain("the Worker would send no invitation");
    // Nothing set: a product page in the content is refused too, and so is an empty one while the var names a product.
    expect(productOriginProblem(configWith(""), withProductUrl("https://app.pickfund.example/join"))).toContain(
      "vars.PRODUCT_SIGNUP_ORIGIN is empty",
    );
    expect(productOriginProblem(configWith("https://app.pickfund.example"), withProductUrl(""))).toContain(
      "launch.productSignupUrl is empty",
    );
  });

  it("takes a product page on PRODUCT_SIGNUP_ORIGIN, and none while both are empty", () => {
    expect(
      productOriginProblem(configWith("https://app.pickfund.example"), withProductUrl("https://app.pickfund.example/join?x=1")),
    ).toBeNull();
    expect(
      productOriginProblem(configWith("https://App.PickFund.example/"), withProductUrl("https://app.pickfund.example/join")),
    ).toBeNull();
    expect(productOriginProblem(configWith(""), withProductUrl(""))).toBeNull();
  });
});
