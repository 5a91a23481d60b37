import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { plainAudioType, sniffAudioFormat } from "#app/services/visits/audio-format.ts";
import { servedAudioType } from "#app/services/visits/audio-playback.server.ts";
import { parseByteRange } from "#app/services/visits/byte-range.ts";
import { contentDisposition, FILE_SECURITY_HEADERS, fileResponseHeaders } from "#app/utils/file-response.ts";
import { securityHeaders } from "../../server/security-headers.ts";

// The pieces of the audio-type XSS fix that need no database: which declared types pass, what the
// file is served as, Content-Disposition from user text, byte ranges, and the Express layer that
// must not join a file response's CORP with helmet's into an invalid value.

describe("plainAudioType", () => {
  it("takes one plain audio type with simple parameters, normalised", () => {
    expect(plainAudioType("audio/webm;codecs=opus")).toBe("audio/webm;codecs=opus");
    expect(plainAudioType("audio/ogg; codecs=opus")).toBe("audio/ogg;codecs=opus");
    expect(plainAudioType('Audio/MP4; Codecs="mp4a.40.2"')).toBe("audio/mp4;codecs=mp4a.40.2");
    expect(plainAudioType(" audio/x-wav ")).toBe("audio/x-wav");
    expect(plainAudioType("audio/vnd.wave")).toBe("audio/vnd.wave");
  });

  it("refuses lists, other types, wildcards, odd parameters and controls", () => {
    for (const raw of [
      "audio/wav; x=1, text/html",
      "audio/wav; x=1, text/javascript",
      "audio/wav,text/html",
      'audio/wav; x="1, text/html"',
      "audio/wav; x=a b",
      "audio/wav; x",
      "audio/wav;",
      "audio/*",
      "audio/",
      "text/html",
      "video/webm",
      "application/octet-stream",
      "audio/wav\r\nX-Injected: 1",
      "audio/w\u0000av",
      "audio/wav;a=1;b=2;c=3;d=4;e=5",
      `audio/${"a".repeat(201)}`,
      "",
      null,
      undefined,
    ]) {
      expect(plainAudioType(raw), String(raw)).toBeNull();
    }
  });
});

describe("servedAudioType", () => {
  const bytes = (text: string, at = 0) => {
    const b = new Uint8Array(16);
    b.set(new TextEncoder().encode(text), at);
    return b;
  };
  it("maps the detected format through the fixed table; unknown bytes are an octet-stream attachment", () => {
    const riff = bytes("RIFF");
    riff.set(new TextEncoder().encode("WAVE"), 8);
    expect(servedAudioType(riff)).toEqual({ contentType: "audio/wav", disposition: "inline", extension: "wav" });
    expect(servedAudioType(Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3]))).toMatchObject({ contentType: "audio/webm" });
    expect(servedAudioType(bytes("OggS"))).toMatchObject({ contentType: "audio/ogg" });
    expect(servedAudioType(bytes("ftyp", 4))).toMatchObject({ contentType: "audio/mp4", extension: "m4a" });
    expect(servedAudioType(bytes("ID3"))).toMatchObject({ contentType: "audio/mpeg" });
    expect(servedAudioType(Uint8Array.from([0xff, 0xfb, 0x90]))).toMatchObject({ contentType: "audio/mpeg" });
    expect(servedAudioType(bytes("fLaC"))).toMatchObject({ contentType: "audio/flac" });
    for (const head of [bytes("<script>alert(1)"), bytes("alert(1)//"), new Uint8Array(0)]) {
      expect(sniffAudioFormat(head)).toBeNull();
      expect(servedAudioType(head)).toEqual({
        contentType: "application/octet-stream",
        disposition: "attachment",
        extension: "bin",
      });
    }
  });
});

describe("contentDisposition", () => {
  it("quotes an ASCII name and encodes the exact one (RFC 6266 / 5987)", () => {
    expect(contentDisposition("inline", "visit-1", "wav")).toBe(`inline; filename="visit-1.wav"; filename*=UTF-8''visit-1.wav`);
    expect(contentDisposition("attachment", "Bilan périodontal (été)", "json")).toBe(
      `attachment; filename="Bilan periodontal _ete_.json"; filename*=UTF-8''Bilan%20p%C3%A9riodontal%20%28%C3%A9t%C3%A9%29.json`,
    );
  });

  it("lets no CR, LF, quote, backslash, separator or bidi override through", () => {
    const value = contentDisposition("attachment", 'a"\r\nSet-Cookie: x=1\\..\\/etc/passwd\u202Egpj.exe', "json");
    expect(value).not.toMatch(/[\r\n\\]/);
    expect(value.match(/"/g)).toHaveLength(2);
    expect(value).not.toContain("\u202E");
    const filenameStar = value.split("filename*=UTF-8''")[1] ?? "";
    expect(filenameStar).toMatch(/^[A-Za-z0-9!#$&+.^_`|~%-]+$/);
    expect(decodeURIComponent(filenameStar)).toBe("a_Set-Cookie_ x=1_..__etc_passwdgpj.exe.json");
  });

  it("names empty or blank names `download`, keeps long names short and refuses a bad extension", () => {
    expect(contentDisposition("attachment", " .. ", "bin")).toBe(
      `attachment; filename="download.bin"; filename*=UTF-8''download.bin`,
    );
    expect(contentDisposition("attachment", "x".repeat(500), "bin").length).toBeLessThan(300);
    expect(() => contentDisposition("attachment", "x", 'json"; x=1')).toThrow();
  });

  it("fileResponseHeaders carries the type, the disposition, no-store and the security headers", () => {
    const headers = fileResponseHeaders({
      contentType: "application/pdf",
      disposition: "attachment",
      name: "n",
      extension: "pdf",
    });
    expect(Object.fromEntries(headers)).toEqual({
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="n.pdf"; filename*=UTF-8''n.pdf`,
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; sandbox",
      "x-content-type-options": "nosniff",
      "cross-origin-resource-policy": "same-origin",
    });
  });
});

describe("parseByteRange", () => {
  it("clamps an end past the end of the body, whatever its length; only a start beyond it is unsatisfiable", () => {
    expect(parseByteRange("bytes=10-100", 50)).toEqual({ kind: "partial", start: 10, end: 49 });
    expect(parseByteRange("bytes=10-9999999999999999999999", 50)).toEqual({ kind: "partial", start: 10, end: 49 });
    expect(parseByteRange(`bytes=0-${"9".repeat(400)}`, 50)).toEqual({ kind: "partial", start: 0, end: 49 });
    expect(parseByteRange("bytes=-9999999999999999999999", 50)).toEqual({ kind: "partial", start: 0, end: 49 });
    expect(parseByteRange("bytes=00000000000000000049-", 50)).toEqual({ kind: "partial", start: 49, end: 49 });
    expect(parseByteRange("bytes=50-60", 50)).toEqual({ kind: "unsatisfiable" });
    expect(parseByteRange("bytes=9999999999999999999999-", 50)).toEqual({ kind: "unsatisfiable" });
  });
});

describe("server security headers with a file response", () => {
  it("a route's CORP and nosniff replace helmet's (not joined into an invalid value); both CSPs stay", async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.nonce = "n";
      next();
    });
    app.use(securityHeaders({ development: false }));
    // What React Router's Express adapter does with a Response's headers: res.append each one.
    app.get("/file", (_req, res) => {
      for (const [name, value] of Object.entries(FILE_SECURITY_HEADERS)) res.append(name, value);
      res.append("Content-Type", "audio/wav");
      res.send("x");
    });
    app.get("/page", (_req, res) => {
      res.send("<p>page</p>");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const file = await fetch(`${base}/file`);
      expect(file.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      expect(file.headers.get("content-security-policy")).toContain("default-src 'none'; sandbox");
      expect(file.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const page = await fetch(`${base}/page`);
      expect(page.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
