/**
 * Reading a request body within the 8 KB limit (worker/src/http.ts), on the standard Request that workerd and Node
 * share. The end-to-end tests (signups.test.ts) cannot see the early refusal on Content-Length: wrangler dev's local
 * router reads a body whole before the Worker gets it, as Cloudflare's edge may too.
 */
import { describe, expect, it } from "vitest";
import { BodyTooLarge, MAX_BODY_BYTES, readBody } from "../../worker/src/http";

/** A request whose body sends `chunks` and then, unless `end`, never finishes. */
function requestWith(chunks: string[], { end = true, headers = {} }: { end?: boolean; headers?: Record<string, string> } = {}): Request {
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(new TextEncoder().encode(chunk));
      else if (end) controller.close();
      else return new Promise<void>(() => undefined);
    },
  });
  return new Request("http://127.0.0.1/api/signups", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readBody", () => {
  it("refuses a Content-Length over the limit without waiting for the body", async () => {
    const request = requestWith([], { end: false, headers: { "content-length": String(MAX_BODY_BYTES + 1) } });
    await expect(readBody(request)).rejects.toBeInstanceOf(BodyTooLarge);
  }, 5_000);

  it("stops reading as soon as the bytes pass the limit, whatever Content-Length said", async () => {
    const request = requestWith(["x".repeat(MAX_BODY_BYTES), "y"], { end: false, headers: { "content-length": "10" } });
    await expect(readBody(request)).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it("counts bytes, not characters", async () => {
    // "é" is two bytes in UTF-8: 4,097 of them are 8,194 bytes.
    await expect(readBody(requestWith(["é".repeat(4_097)]))).rejects.toBeInstanceOf(BodyTooLarge);
    await expect(readBody(requestWith(["é".repeat(4_096)]))).resolves.toBe("é".repeat(4_096));
  });

  it("joins a body of exactly the limit from its chunks", async () => {
    const text = "a".repeat(MAX_BODY_BYTES);
    await expect(readBody(requestWith([text.slice(0, 1_000), text.slice(1_000, 5_000), text.slice(5_000)]))).resolves.toBe(text);
  });
});
