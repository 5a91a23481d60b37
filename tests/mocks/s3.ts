import { HttpResponse, http } from "msw";

/**
 * An S3-compatible endpoint for msw (the outside service we cannot run here): objects live in a
 * Map, every request is logged with the parts a real server would look at, and faults can be
 * queued. Path-style (`http://s3.murmur.test/<bucket>/<key>`) and virtual-hosted
 * (`http://<bucket>.s3.murmur.test/<key>`) addresses both work.
 */
export const S3_HOST = "s3.murmur.test";
export const S3_ENDPOINT = `http://${S3_HOST}`;

export interface S3Request {
  method: string;
  host: string;
  bucket: string;
  key: string;
  query: Record<string, string>;
  authorization: string | null;
  contentSha256: string | null;
  range: string | null;
  contentLength: string | null;
}

export interface S3Fault {
  method?: string;
  status: number;
  /** How many matching requests fail before the endpoint answers normally again. */
  times: number;
}

export function createS3Mock(options: { listPageSize?: number } = {}) {
  const objects = new Map<string, Uint8Array>();
  const requests: S3Request[] = [];
  const faults: S3Fault[] = [];
  const pageSize = options.listPageSize ?? 1000;

  const xml = (body: string, status = 200) =>
    new HttpResponse(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
      status,
      headers: { "content-type": "application/xml" },
    });
  const error = (status: number, code: string) =>
    xml(`<Error><Code>${code}</Code><Message>${code}</Message><RequestId>mock</RequestId></Error>`, status);

  const handler = http.all(/^http:\/\/([a-z0-9.-]+\.)?s3\.murmur\.test\//, async ({ request }) => {
    const url = new URL(request.url);
    const pathParts = url.pathname.slice(1).split("/").map(decodeURIComponent);
    const virtual = url.hostname !== S3_HOST;
    const bucket = virtual ? url.hostname.slice(0, -S3_HOST.length - 1) : (pathParts.shift() ?? "");
    const key = pathParts.join("/");
    const entry: S3Request = {
      method: request.method,
      host: url.hostname,
      bucket,
      key,
      query: Object.fromEntries(url.searchParams),
      authorization: request.headers.get("authorization"),
      contentSha256: request.headers.get("x-amz-content-sha256"),
      range: request.headers.get("range"),
      contentLength: request.headers.get("content-length"),
    };
    requests.push(entry);

    const fault = faults.find((f) => f.times > 0 && (!f.method || f.method === request.method));
    if (fault) {
      fault.times -= 1;
      if (request.method !== "HEAD") await request.arrayBuffer();
      return request.method === "HEAD"
        ? new HttpResponse(null, { status: fault.status })
        : error(fault.status, fault.status === 503 ? "SlowDown" : "InternalError");
    }
    const id = `${bucket}/${key}`;

    switch (request.method) {
      case "PUT": {
        objects.set(id, new Uint8Array(await request.arrayBuffer()));
        return new HttpResponse(null, { status: 200, headers: { etag: '"mock"' } });
      }
      case "HEAD": {
        const found = objects.get(id);
        return found
          ? new HttpResponse(null, { status: 200, headers: { "content-length": String(found.byteLength) } })
          : new HttpResponse(null, { status: 404 });
      }
      case "DELETE": {
        objects.delete(id);
        return new HttpResponse(null, { status: 204 });
      }
      case "GET": {
        if (key === "" && url.searchParams.get("list-type") === "2") return list(bucket, url.searchParams);
        const found = objects.get(id);
        if (!found) return error(404, "NoSuchKey");
        const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.get("range") ?? "");
        if (!range) {
          return new HttpResponse(found.slice(), {
            headers: { "content-length": String(found.byteLength), "content-type": "application/octet-stream" },
          });
        }
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]), found.byteLength - 1);
        if (start >= found.byteLength) return error(416, "InvalidRange");
        const part = found.slice(start, end + 1);
        return new HttpResponse(part, {
          status: 206,
          headers: {
            "content-length": String(part.byteLength),
            "content-range": `bytes ${start}-${end}/${found.byteLength}`,
          },
        });
      }
      default:
        return error(405, "MethodNotAllowed");
    }
  });

  function list(bucket: string, params: URLSearchParams) {
    const prefix = params.get("prefix") ?? "";
    const after = params.get("continuation-token") ?? "";
    const all = [...objects.keys()]
      .filter((id) => id.startsWith(`${bucket}/`))
      .map((id) => id.slice(bucket.length + 1))
      .filter((k) => k.startsWith(prefix) && k > after)
      .sort();
    const page = all.slice(0, pageSize);
    const truncated = all.length > page.length;
    const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    return xml(
      `<ListBucketResult><Name>${bucket}</Name><Prefix>${xmlText(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
        `<IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextContinuationToken>${xmlText(page.at(-1) ?? "")}</NextContinuationToken>` : "") +
        page
          .map((k) => `<Contents><Key>${xmlText(k)}</Key><Size>${objects.get(`${bucket}/${k}`)?.byteLength}</Size></Contents>`)
          .join("") +
        "</ListBucketResult>",
    );
  }

  return {
    handler,
    objects,
    requests,
    /** Makes the next `times` requests (of `method`, or any) answer `status`. */
    fail(fault: S3Fault) {
      faults.push({ ...fault });
    },
    reset() {
      objects.clear();
      requests.length = 0;
      faults.length = 0;
    },
  };
}
