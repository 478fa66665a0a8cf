import http from "node:http";

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; text: string };

/**
 * One HTTP request with node:http, which sends any method (fetch refuses TRACE) and the path exactly as
 * given (no URL normalisation), and never follows redirects.
 */
export function rawRequest(
  base: string,
  {
    method,
    path,
    headers = {},
    body,
  }: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers:
          body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
