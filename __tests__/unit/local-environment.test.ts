/**
 * What a local run (`npm start`) takes from the shell and reports unset (scripts/service/environment.ts), held to the
 * names docs/deploy.md's Configuration table documents and to `.dev.vars.example`, so that no var or secret the docs name
 * is dropped on the way to the Worker again.
 * @jest-environment node
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  HELD_BACK,
  LOCAL_CONSOLE_OPERATOR,
  localRunVars,
  OFF_WHILE_UNSET,
  PASSED_THROUGH,
  passedThroughVars,
  unsetReport,
} from "../../scripts/service/environment";

const ROOT_DIR = path.join(__dirname, "..", "..");

/** The Worker vars and secrets of docs/deploy.md's Configuration table (its rows of kind `var` or `secret`), in order. */
function documentedNames(): string[] {
  const deploy = readFileSync(path.join(ROOT_DIR, "docs", "deploy.md"), "utf8");
  const section = deploy.split(/^## /m).find((part) => part.startsWith("Configuration\n"));
  if (section === undefined) throw new Error("docs/deploy.md has no Configuration section");
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)]
    .filter(([, , kind]) => /\b(var|secret)\b/.test(kind))
    .map(([, name]) => name);
}

describe("the names a local run passes through", () => {
  it("are every var and secret docs/deploy.md documents, in its order, except the ones held back", () => {
    const documented = documentedNames();
    expect(documented.length).toBeGreaterThan(PASSED_THROUGH.length);
    expect(documented.filter((name) => !(name in HELD_BACK))).toEqual([...PASSED_THROUGH]);
    expect(Object.keys(HELD_BACK).filter((name) => !documented.includes(name))).toEqual([]);
  });

  it("leave the held-back ones out, each with its reason", () => {
    expect(PASSED_THROUGH.filter((name) => name in HELD_BACK)).toEqual([]);
    for (const reason of Object.values(HELD_BACK)) expect(reason.length).toBeGreaterThan(20);
  });

  it("are each in .dev.vars.example, under one line on what it is and what is off without it", () => {
    const lines = readFileSync(path.join(ROOT_DIR, ".dev.vars.example"), "utf8").split("\n");
    const listed = lines.flatMap((line) => /^# ([A-Z][A-Z0-9_]*)=/.exec(line)?.[1] ?? []);
    expect(listed).toEqual([...PASSED_THROUGH]);
    for (const name of PASSED_THROUGH) {
      const description = lines[lines.findIndex((line) => line.startsWith(`# ${name}=`)) - 1];
      expect(description).toMatch(/^# .+ Unset: .+/);
    }
  });
});

describe("passedThroughVars", () => {
  it("takes every name set, trimmed, and nothing empty or unlisted", () => {
    const shell = Object.fromEntries(PASSED_THROUGH.map((name) => [name, ` ${name.toLowerCase()} `]));
    expect(passedThroughVars({ ...shell, ENVIRONMENT: "production", CONSOLE_HOST: "console.example", PATH: "/bin" })).toEqual(
      Object.fromEntries(PASSED_THROUGH.map((name) => [name, name.toLowerCase()])),
    );
    expect(passedThroughVars({ LAUNCH_CHECKIN_SECRET: "", KLAVIYO_WEBHOOK_SECRET: "  " })).toEqual({});
  });
});

describe("localRunVars", () => {
  it("passes the check-in secret and the webhook's former secret from the shell", () => {
    const vars = localRunVars({ LAUNCH_CHECKIN_SECRET: "check-in", KLAVIYO_WEBHOOK_SECRET_PREVIOUS: "former" }, {});
    expect(vars).toEqual({
      LAUNCH_CHECKIN_SECRET: "check-in",
      KLAVIYO_WEBHOOK_SECRET_PREVIOUS: "former",
      CONSOLE_LOCAL_OPERATOR: LOCAL_CONSOLE_OPERATOR,
    });
  });

  it("leaves a secret that only .dev.vars sets to wrangler, off the command line", () => {
    expect(localRunVars({}, { LAUNCH_CHECKIN_SECRET: "from-dev-vars" })).toEqual({ CONSOLE_LOCAL_OPERATOR: LOCAL_CONSOLE_OPERATOR });
  });

  it("takes the operator and the links' origin from .dev.vars when the shell lacks them, and the shell's over them", () => {
    const devVars = { CONSOLE_LOCAL_OPERATOR: "dev-vars@localhost", SITE_ORIGIN: "http://tunnel.example" };
    expect(localRunVars({}, devVars)).toEqual(devVars);
    expect(localRunVars({ CONSOLE_LOCAL_OPERATOR: "shell@localhost", SITE_ORIGIN: "http://shell.example" }, devVars)).toEqual({
      CONSOLE_LOCAL_OPERATOR: "shell@localhost",
      SITE_ORIGIN: "http://shell.example",
    });
  });
});

describe("unsetReport", () => {
  it("names each optional one unset, in order, with what is off", () => {
    const report = unsetReport({ KLAVIYO_API_URL: "https://a.klaviyo.com", TURNSTILE_SECRET_KEY: " " });
    expect(report).toHaveLength(Object.keys(OFF_WHILE_UNSET).length);
    expect(report.map((line) => line.slice(0, line.indexOf(" ")))).toEqual(PASSED_THROUGH.filter((name) => name in OFF_WHILE_UNSET));
    expect(report).toContain("LAUNCH_CHECKIN_SECRET unset: POST /api/invitations/check-in answers 503");
    expect(report).toContain("KLAVIYO_WEBHOOK_SECRET unset: POST /api/hooks/klaviyo/confirmed answers 503");
  });

  it("says nothing of one that is set, from the shell or from .dev.vars", () => {
    const all = Object.fromEntries(Object.keys(OFF_WHILE_UNSET).map((name) => [name, "set"]));
    expect(unsetReport(all)).toEqual([]);
    expect(unsetReport({ ...all, LAUNCH_CHECKIN_SECRET: undefined })).toEqual([
      "LAUNCH_CHECKIN_SECRET unset: POST /api/invitations/check-in answers 503",
    ]);
  });
});
