/** The waitlist service's entry: the API under /api/ (fetch) and the delivery queue consumer (queue). */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    void env;
    return new Response(JSON.stringify({ errors: [{ status: "404", code: "not_found", detail: new URL(request.url).pathname }] }), {
      status: 404,
      headers: { "content-type": "application/vnd.api+json", "cache-control": "no-store" },
    });
  },
} satisfies ExportedHandler<Env>;
