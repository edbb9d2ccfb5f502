import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  socketPath?: string;
  port?: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A plain HTTP/1.1 request, for what a typed client cannot send: malformed bodies, foreign Host headers. */
export function rawRequest(req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath: req.socketPath,
        host: req.socketPath ? undefined : "127.0.0.1",
        port: req.port,
        method: req.method ?? "POST",
        path: req.path,
        headers: { "content-type": "application/json", ...req.headers },
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    request.on("error", reject);
    request.end(req.body);
  });
}
