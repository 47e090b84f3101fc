/**
 * The `_headers` file the build writes: a CSP that allows only our own
 * scripts (inline ones by hash), the provider endpoint, and the ad network only
 * when a pixel is configured.
 */
import { createHash } from "node:crypto";
import { contentSecurityPolicy, headersFile, inlineScriptHashes } from "../../src/build/securityHeaders";
import { parseHeadersFile, headersForPath } from "../../scripts/lib/static-server";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const PAGE = `<html><head><script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>
<script src="/app-123.js" async></script><script type="application/json">{"a":1}</script></head>
<body><script>window.___chunkMapping="{}";</script></body></html>`;

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

it("hashes every executable inline script exactly as written, and skips external and JSON scripts", () => {
  expect(inlineScriptHashes(PAGE)).toEqual([sha('/*<![CDATA[*/window.pagePath="/";/*]]>*/'), sha('window.___chunkMapping="{}";')]);
});

it("allows only our own scripts: self plus the inline hashes, never 'unsafe-inline'", () => {
  const csp = contentSecurityPolicy({
    htmlPages: [PAGE, PAGE],
    endpointUrl: "https://manage.kmail-lists.com/ajax/subscriptions/subscribe",
    pixel: false,
  });
  const scriptSrc = directive(csp, "script-src");
  expect(scriptSrc).toBe(`script-src 'self' ${inlineScriptHashes(PAGE).sort().join(" ")}`);
  expect(scriptSrc).not.toContain("unsafe-inline");
  expect(directive(csp, "connect-src")).toBe("connect-src 'self' https://manage.kmail-lists.com");
  expect(directive(csp, "form-action")).toBe("form-action 'self' https://manage.kmail-lists.com");
  expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
  expect(csp).not.toContain("facebook");
});

it("allows the ad network only when a pixel is configured", () => {
  const csp = contentSecurityPolicy({ htmlPages: [PAGE], endpointUrl: "https://x.example/s", pixel: true });
  expect(directive(csp, "script-src")).toContain("https://connect.facebook.net");
  expect(directive(csp, "connect-src")).toBe("connect-src 'self' https://x.example https://connect.facebook.net https://www.facebook.com");
});

it("lets the script reach only the chosen transport's origin, and the native form post only to the no-JavaScript endpoint", () => {
  const csp = contentSecurityPolicy({
    htmlPages: [PAGE],
    endpointUrl: "https://a.klaviyo.com/client/subscriptions/",
    noScriptFormUrl: "https://manage.kmail-lists.com/subscriptions/subscribe",
    pixel: false,
  });
  expect(directive(csp, "connect-src")).toBe("connect-src 'self' https://a.klaviyo.com");
  expect(directive(csp, "form-action")).toBe("form-action 'self' https://manage.kmail-lists.com");
});

describe("with the waitlist service (waitlist-api)", () => {
  const SERVICE = { htmlPages: [PAGE], endpointUrl: "/api/signups", noScriptFormUrl: "/api/signups", pixel: false };

  it("lets the script and the native form reach the site's own origin only: no Klaviyo origin at all", () => {
    const csp = contentSecurityPolicy(SERVICE);
    expect(directive(csp, "connect-src")).toBe("connect-src 'self'");
    expect(directive(csp, "form-action")).toBe("form-action 'self'");
    expect(csp).not.toContain("klaviyo");
    expect(csp).not.toContain("kmail-lists");
  });

  it("allows no third-party script or frame without Turnstile", () => {
    const csp = contentSecurityPolicy(SERVICE);
    expect(csp).not.toContain("challenges.cloudflare.com");
    expect(directive(csp, "frame-src")).toBe("");
  });

  it("with Turnstile, allows Cloudflare's script and its widget's frame, and nothing else of Cloudflare's", () => {
    const csp = contentSecurityPolicy({
      ...SERVICE,
      turnstileScriptUrl: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    });
    expect(directive(csp, "script-src")).toBe(
      `script-src 'self' ${inlineScriptHashes(PAGE).sort().join(" ")} https://challenges.cloudflare.com`,
    );
    expect(directive(csp, "frame-src")).toBe("frame-src https://challenges.cloudflare.com");
    expect(directive(csp, "connect-src")).toBe("connect-src 'self'");
  });

  it("allows the origin of a replaced Turnstile script (a test's loopback stand-in) instead of Cloudflare's", () => {
    const csp = contentSecurityPolicy({ ...SERVICE, turnstileScriptUrl: "http://127.0.0.1:40123/turnstile/v0/api.js?render=explicit" });
    expect(directive(csp, "script-src")).toContain("http://127.0.0.1:40123");
    expect(directive(csp, "frame-src")).toBe("frame-src http://127.0.0.1:40123");
    expect(csp).not.toContain("challenges.cloudflare.com");
  });

  it("still allows an endpoint a test moved to another origin (SIGNUP_ENDPOINT_URL)", () => {
    const csp = contentSecurityPolicy({ ...SERVICE, endpointUrl: "http://127.0.0.1:40123/api/signups" });
    expect(directive(csp, "connect-src")).toBe("connect-src 'self' http://127.0.0.1:40123");
    expect(directive(csp, "form-action")).toBe("form-action 'self'");
  });
});

it("writes the security headers for every path in Netlify/Cloudflare _headers format", () => {
  const file = headersFile({ htmlPages: [PAGE], endpointUrl: "https://x.example/s", pixel: false });
  const block = file.split("\n\n").find((b) => b.startsWith("/*\n")) ?? "";
  const names = block
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(":")[0]);
  expect(names).toEqual([
    "Content-Security-Policy",
    "Strict-Transport-Security",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Permissions-Policy",
    "X-Frame-Options",
  ]);
  expect(block).toContain("  X-Content-Type-Options: nosniff");
});

describe("the web editor's own policy on /admin/", () => {
  const file = headersFile({
    htmlPages: [PAGE],
    endpointUrl: "https://x.example/s",
    pixel: false,
    admin: { connect: ["https://api.github.com"], img: ["https://avatars.githubusercontent.com"] },
  });
  const rules = parseHeadersFile(file);
  const header = (pathname: string, name: string) => headersForPath(rules, pathname).get(name.toLowerCase())?.[1] ?? "";

  it("lets Decap CMS eval, style inline and reach its backend on /admin/ only, never framed, never indexed, never cached for ever", () => {
    const csp = header("/admin/decap-cms.js", "Content-Security-Policy");
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'unsafe-eval'");
    expect(directive(csp, "connect-src")).toBe("connect-src 'self' https://api.github.com");
    expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(header("/admin/", "X-Robots-Tag")).toBe("noindex, nofollow");
    expect(header("/admin/decap-cms.js", "Cache-Control")).toBe("public, max-age=0, must-revalidate");
  });

  it("keeps the operator's console out of search engines by header too, and no other page", () => {
    expect(header("/console/", "X-Robots-Tag")).toBe("noindex, nofollow");
    expect(header("/console/", "Content-Security-Policy")).toBe(header("/", "Content-Security-Policy"));
  });

  it("gives no other path any of it", () => {
    for (const pathname of ["/", "/success/", "/app-123.js", "/administration/", "/consoles/"]) {
      const csp = header(pathname, "Content-Security-Policy");
      expect([pathname, directive(csp, "script-src")]).toEqual([pathname, expect.not.stringContaining("unsafe-eval")]);
      expect([pathname, csp]).toEqual([pathname, expect.not.stringContaining("api.github.com")]);
      expect([pathname, header(pathname, "X-Robots-Tag")]).toEqual([pathname, ""]);
    }
  });
});

describe("the operator's console's own policy on /console/", () => {
  const CONSOLE_PAGE = `<html><head><script>window.pagePath="/console/";</script></head><body></body></html>`;
  const input = {
    htmlPages: [PAGE, CONSOLE_PAGE],
    endpointUrl: "/api/signups",
    pixel: true,
    turnstileScriptUrl: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    admin: { connect: ["https://api.github.com"], img: [] },
    consolePage: CONSOLE_PAGE,
  };
  const header = (file: string, pathname: string, name: string) =>
    headersForPath(parseHeadersFile(file), pathname).get(name.toLowerCase())?.[1] ?? "";

  it("names no third-party origin: no Turnstile, no ad network, no CMS backend; only the console page's scripts by hash", () => {
    const file = headersFile(input);
    const csp = header(file, "/console/", "Content-Security-Policy");
    for (const thirdParty of ["challenges.cloudflare.com", "facebook", "api.github.com", "unsafe-eval"])
      expect(csp).not.toContain(thirdParty);
    expect(directive(csp, "script-src")).toBe(`script-src 'self' ${sha('window.pagePath="/console/";')}`);
    expect(directive(csp, "connect-src")).toBe("connect-src 'self'");
    // The control: the public pages' policy is unchanged, third parties and all.
    expect(header(file, "/", "Content-Security-Policy")).toContain("challenges.cloudflare.com");
  });

  it("on Cloudflare (the waitlist build) detaches each header a later block replaces, so each is sent once", () => {
    const blockOf = (file: string, path: string) => file.split("\n\n").find((b) => b.startsWith(`${path}\n`)) ?? "";
    const cloudflare = headersFile({ ...input, detach: true });
    expect(blockOf(cloudflare, "/console/*").split("\n").slice(1, 2)).toEqual(["  ! Content-Security-Policy"]);
    expect(blockOf(cloudflare, "/admin/*").split("\n").slice(1, 3)).toEqual(["  ! Content-Security-Policy", "  ! Cache-Control"]);
    // Only the blocks that replace a header detach one.
    expect(cloudflare.match(/^ {2}! /gm)).toHaveLength(3);
    // A static host's build has none: Netlify refuses the line, and its later block wins anyway.
    expect(headersFile(input)).not.toMatch(/^ {2}!/m);
    expect(header(cloudflare, "/admin/decap-cms.js", "Cache-Control")).toBe("public, max-age=0, must-revalidate");
  });
});
