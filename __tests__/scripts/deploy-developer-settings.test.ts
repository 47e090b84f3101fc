/**
 * `npm run deploy`'s hold on the settings only developers set: it refuses invitation links to another origin than
 * wrangler.jsonc's PRODUCT_SIGNUP_ORIGIN (scripts/service/product-origin.ts), and shows each change to the draw's
 * rules, the drand chain and relay since the live site's build, asking before it deploys
 * (scripts/service/developer-settings.ts). The live site is a loopback stand-in serving its service-settings.json;
 * nothing is built or deployed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { developerSettingsProblem, settingChanges, type ReviewOptions } from "../../scripts/service/developer-settings";
import { productOriginProblem } from "../../scripts/service/product-origin";
import { PROJECT_DIR } from "../../scripts/lib/gatsby-build";
import type { ServiceSettings } from "../../shared/service-settings";
import { serviceSettings } from "../../src/build/serviceSettings";
import { developerOnlyFields } from "../../src/content/json-schema";
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

describe("the draw's rules, chain and relay", () => {
  /** The live site's settings file: 404 while `published` is null. */
  let published: unknown = null;
  let server: Server;
  let liveUrl: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url !== "/service-settings.json" || published === null) response.writeHead(404).end("Not found");
      else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(published));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    liveUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Review `built` against the live site as a person at the terminal answering `answer`, or as given. */
  async function review(built: ServiceSettings, options: Partial<Omit<ReviewOptions, "output">> & { answer?: string } = {}) {
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    const problem = await developerSettingsProblem(
      { ...built, siteUrl: liveUrl },
      { yes: false, interactive: true, input: Readable.from([`${options.answer ?? ""}\n`]), ...options, output },
    );
    return { problem, printed };
  }

  const moreWinners = { ...SHIPPED, draw: { ...SHIPPED.draw, winners: SHIPPED.draw.winners + 2 } };

  it("deploy shows a change to the draw's rules and asks before deploying", async () => {
    published = SHIPPED;
    const refused = await review(moreWinners, { answer: "n" });
    expect(refused.printed).toContain(`This deploy changes settings only developers set, compared with ${liveUrl}/service-settings.json:`);
    expect(refused.printed).toContain(`  draw.winners: ${SHIPPED.draw.winners} → ${SHIPPED.draw.winners + 2}\n`);
    expect(refused.printed).toContain("Deploy these changes? [y/N] ");
    expect(refused.problem).toBe("The changed settings were not confirmed.");
    // Enter alone is no, and so is an input that ends (Ctrl-D).
    expect((await review(moreWinners, { answer: "" })).problem).toBe("The changed settings were not confirmed.");
    expect((await review(moreWinners, { input: Readable.from([]) })).problem).toBe("The changed settings were not confirmed.");
    expect((await review(moreWinners, { answer: "y" })).problem).toBeNull();
  });

  it("refuses a change with nobody at the terminal unless --yes, and never asks with it", async () => {
    published = SHIPPED;
    const unattended = await review(moreWinners, { interactive: false });
    expect(unattended.printed).toContain("draw.winners:");
    expect(unattended.problem).toContain("npm run deploy -- --yes");
    const yes = await review(moreWinners, { interactive: false, yes: true });
    expect(yes.printed).not.toContain("[y/N]");
    expect(yes.problem).toBeNull();
  });

  it("names each moved part of the chain and the relay, and asks nothing when none moved", async () => {
    published = SHIPPED;
    const relay = "https://drand.cloudflare.com";
    const moved = { ...SHIPPED, draw: { ...SHIPPED.draw, chain: { ...SHIPPED.draw.chain, period: 30 }, relayUrl: relay } };
    expect(settingChanges(SHIPPED, moved)).toEqual([
      { field: "draw.chain.period", deployed: String(SHIPPED.draw.chain.period), built: "30" },
      { field: "draw.relayUrl", deployed: JSON.stringify(SHIPPED.draw.relayUrl), built: JSON.stringify(relay) },
    ]);
    const same = await review(SHIPPED);
    expect(same.problem).toBeNull();
    expect(same.printed).not.toContain("[y/N]");
  });

  it("asks too on the service's first deploy, when the live site publishes no settings", async () => {
    published = null;
    const first = await review(SHIPPED, { answer: "n" });
    expect(first.printed).toContain("publishes no settings yet");
    expect(first.printed).toContain(`  draw.cutoff: (none) → ${JSON.stringify(SHIPPED.draw.cutoff)}\n`);
    expect(first.problem).toBe("The changed settings were not confirmed.");
  });

  it("compares every setting the web editor leaves out: each is in service-settings.json", () => {
    for (const field of developerOnlyFields())
      expect([field, field.split(".").reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], SHIPPED)]).toEqual([
        field,
        expect.anything(),
      ]);
  });
});
