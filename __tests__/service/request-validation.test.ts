/**
 * The validator every route reads its input with (worker/src/validate.ts): a refused query or path parameter is named
 * in `source.parameter`, a refused body member in `source.pointer`, and an unknown query parameter is refused.
 */
import { expect, it } from "vitest";
import { CONSOLE_AUDIT_ENDPOINT, CONSOLE_DASHBOARD_ENDPOINT, CONSOLE_ERROR_CODE, personActionEndpoint } from "../../shared/console";
import { errorsOf, LOCAL_ORIGIN, startWaitlistService } from "./support/service";

const service = startWaitlistService({ origin: LOCAL_ORIGIN, vars: { CONSOLE_LOCAL_OPERATOR: "local-operator@localhost" } });

it.each([
  [`${CONSOLE_DASHBOARD_ENDPOINT}?range=7d&utm_source=x`, "utm_source"],
  [`${CONSOLE_DASHBOARD_ENDPOINT}?range=365d`, "range"],
  [`${CONSOLE_AUDIT_ENDPOINT}?before=0`, "before"],
])("names the query parameter it refuses (%s)", async (path, parameter) => {
  const response = await service.fetch(path);
  expect(response.status).toBe(400);
  expect((await errorsOf(response))[0]).toMatchObject({ code: CONSOLE_ERROR_CODE.parameterInvalid, source: { parameter } });
});

it("points at the body member it refuses", async () => {
  const response = await service.fetch(personActionEndpoint("nobody", "disqualify"), {
    method: "POST",
    headers: { "content-type": "application/json", origin: service.origin },
    body: JSON.stringify({ reason: 42 }),
  });
  expect(response.status).toBe(400);
  expect((await errorsOf(response))[0]).toMatchObject({ code: CONSOLE_ERROR_CODE.reasonInvalid, source: { pointer: "/reason" } });
});

it("answers a method a console path does not take with 405 and the methods it takes", async () => {
  const response = await service.fetch(personActionEndpoint("nobody", "erase"));
  expect(response.status).toBe(405);
  expect(response.headers.get("allow")).toBe("POST");
});
