import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake hub does with requests for one file. */
export interface FakeHubFile {
  body: Buffer;
  /** Send only this many bytes of the next response and cut the connection (a broken download), once. */
  cutAfter?: number;
  /** Answer range requests with the whole file (200), as a server without range support does. */
  ignoreRange?: boolean;
}

export interface FakeHub {
  /** http://127.0.0.1:PORT: what MEMD_HF_ENDPOINT points at. */
  url: string;
  /** Every request: its path and Range header. */
  requests: { path: string; range: string | undefined }[];
  close(): Promise<void>;
}

/**
 * A local HTTP server that speaks the Hugging Face hub's file URLs, /<owner>/<repo>/resolve/<revision>/<path>,
 * with Content-Length and byte ranges as the hub's CDN answers them, for `files` keyed by that path.
 */
export async function startFakeHub(files: Map<string, FakeHubFile>): Promise<FakeHub> {
  const requests: FakeHub["requests"] = [];
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? "");
    const range = req.headers.range;
    requests.push({ path: url, range });
    const file = files.get(url);
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Entry not found");
      return;
    }
    const start = !file.ignoreRange && range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
    if (start >= file.body.length && start > 0) {
      res.writeHead(416, { "content-range": `bytes */${file.body.length}` }).end();
      return;
    }
    const body = file.body.subarray(start);
    res.writeHead(start > 0 ? 206 : 200, {
      "content-length": String(body.length),
      "accept-ranges": "bytes",
      ...(start > 0 ? { "content-range": `bytes ${start}-${file.body.length - 1}/${file.body.length}` } : {}),
    });
    if (file.cutAfter !== undefined) {
      const cut = file.cutAfter;
      file.cutAfter = undefined;
      res.write(body.subarray(0, cut), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
