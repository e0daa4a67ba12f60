import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { decodeFile } from "../../runtime/src/upstream/binary.js";
import { multipartEncode } from "../../runtime/src/upstream/body.js";
import { buildRequest } from "../../runtime/src/upstream/request.js";
import type { HttpBinding } from "../../runtime/src/api/types.js";

test("decodeFile: base64, data: URIs (with name), and file paths only when allowed", () => {
  assert.is(decodeFile("aGVsbG8=", "f").data.toString(), "hello");
  const uri = decodeFile("data:text/plain;name=a%20b.txt;base64,aGk=", "f");
  assert.equal([uri.data.toString(), uri.mediaType, uri.fileName], ["hi", "text/plain", "a b.txt"]);
  assert.is(decodeFile("data:,plain%20text", "f").data.toString(), "plain text");
  assert.throws(() => decodeFile("/etc/hostname", "f"), /--allow-file-read/);
  assert.throws(() => decodeFile("not base64!", "f"), /base64/);
  assert.throws(() => decodeFile(42, "f"), /must be a string/);
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-file-"));
  try {
    writeFileSync(join(dir, "x.bin"), "bytes");
    const read = decodeFile(join(dir, "x.bin"), "f", { allowFileRead: true });
    assert.equal([read.data.toString(), read.fileName], ["bytes", "x.bin"]);
    assert.throws(() => decodeFile(dir, "f", { allowFileRead: true }), /not a file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("multipartEncode: text fields, repeated arrays, JSON objects and file parts", () => {
  const encoded = multipartEncode(
    { caption: 'a "b"', tags: ["x", "y"], meta: { k: 1 }, photo: "data:image/png;name=p.png;base64,AAEC" },
    new Set(["photo"]),
    {},
    "B",
  );
  assert.is(encoded.contentType, "multipart/form-data; boundary=B");
  const text = (encoded.payload as Buffer).toString("latin1");
  assert.is(
    text,
    '--B\r\nContent-Disposition: form-data; name="caption"\r\n\r\na "b"\r\n' +
      '--B\r\nContent-Disposition: form-data; name="tags"\r\n\r\nx\r\n' +
      '--B\r\nContent-Disposition: form-data; name="tags"\r\n\r\ny\r\n' +
      '--B\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"k":1}\r\n' +
      '--B\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n\x00\x01\x02\r\n--B--\r\n',
  );
});

test("buildRequest: octet-stream body is the decoded bytes", () => {
  const http: HttpBinding = {
    method: "post",
    path: "/upload",
    parameters: [],
    body: { kind: "whole", argument: "body", mediaType: "application/octet-stream", required: true, binary: true },
    response: { accept: [] },
  };
  const request = buildRequest(http, { body: "AAEC" }, "http://h");
  assert.is(request.headers["content-type"], "application/octet-stream");
  assert.equal([...(request.body as Buffer)], [0, 1, 2]);
});

test.run();
