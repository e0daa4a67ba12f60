import { test } from "uvu";
import * as assert from "uvu/assert";
import { decodeFile } from "../../runtime/src/features/encodings/files.js";
import { multipartEncode } from "../../runtime/src/features/encodings/forms.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";
import { needsEncodings } from "../../generator/pipeline/plan/features.js";
import { buildRequest } from "../../runtime/src/upstream/request.js";
import { FileContent } from "../../runtime/src/features/encodings/files.js";
import type { HttpBinding } from "../../runtime/src/api/types.js";

test("decodeFile: base64, data: URIs (with name), content read for a reference; a path string is refused", () => {
  assert.is(decodeFile("aGVsbG8=", "f").data.toString(), "hello");
  const uri = decodeFile("data:text/plain;name=a%20b.txt;base64,aGk=", "f");
  assert.equal([uri.data.toString(), uri.mediaType, uri.fileName], ["hi", "text/plain", "a b.txt"]);
  assert.is(decodeFile("data:,plain%20text", "f").data.toString(), "plain text");
  assert.throws(() => decodeFile("/etc/hostname", "f"), /\{"path": "…"\} when the server allows a folder/);
  assert.throws(() => decodeFile("file:///etc/hostname", "f"), /looks like a file path/);
  // JPEG content in base64 starts with "/9j/": content, not a path.
  assert.equal([...decodeFile("/9j/4AAQSkZJRg==", "f").data.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  assert.throws(() => decodeFile("not base64!", "f"), /base64/);
  assert.throws(() => decodeFile(42, "f"), /must be a string/);
  assert.throws(
    () => decodeFile({ data: "AAEC", mediaType: "x/y" }, "f"),
    /must be a string/,
    "no caller forges read content",
  );
  const read = decodeFile(new FileContent(Buffer.from("bytes"), "text/plain", "x.txt"), "f");
  assert.equal([read.data.toString(), read.mediaType, read.fileName], ["bytes", "text/plain", "x.txt"]);
});

test("multipartEncode: text fields, repeated arrays, JSON objects and file parts", () => {
  const encoded = multipartEncode(
    { caption: 'a "b"', tags: ["x", "y"], meta: { k: 1 }, photo: "data:image/png;name=p.png;base64,AAEC" },
    new Set(["photo"]),
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
  const request = buildRequest(http, { body: "AAEC" }, "http://h", requestEncodings());
  assert.is(request.headers["content-type"], "application/octet-stream");
  assert.equal([...(request.body as Buffer)], [0, 1, 2]);
});

test("without feature encodings: JSON and text bodies and form/simple parameters are built, the rest is refused by name", () => {
  const json: HttpBinding = {
    method: "post",
    path: "/pets/{id}",
    parameters: [
      { argument: "id", name: "id", in: "path", style: "simple", explode: false, required: true },
      { argument: "tags", name: "tags", in: "query", style: "form", explode: false, required: false },
    ],
    body: { kind: "whole", argument: "body", mediaType: "application/json", required: true },
    response: { accept: [] },
  };
  const request = buildRequest(json, { id: 7, tags: ["a", "b"], body: { n: 1 } }, "http://h");
  assert.equal([request.url, request.body], ["http://h/pets/7?tags=a,b", '{"n":1}']);
  assert.not.ok(needsEncodings(json));

  const form: HttpBinding = {
    ...json,
    path: "/pets",
    parameters: [],
    body: {
      kind: "properties",
      properties: { a: "a" },
      mediaType: "application/x-www-form-urlencoded",
      required: true,
    },
  };
  assert.ok(needsEncodings(form));
  assert.throws(() => buildRequest(form, { a: "1" }, "http://h"), /needs the encodings feature/);
  assert.is(buildRequest(form, { a: "1 2" }, "http://h", requestEncodings()).body, "a=1+2");

  const deep: HttpBinding = {
    ...json,
    path: "/pets",
    body: undefined,
    parameters: [{ argument: "f", name: "f", in: "query", style: "deepObject", explode: true, required: false }],
  };
  assert.ok(needsEncodings(deep));
  assert.throws(
    () => buildRequest(deep, { f: { a: 1 } }, "http://h"),
    /style deepObject, which needs the encodings feature/,
  );
  assert.is(buildRequest(deep, { f: { a: 1 } }, "http://h", requestEncodings()).url, "http://h/pets?f[a]=1");
  const matrix: HttpBinding = {
    ...deep,
    path: "/pets/{id}",
    parameters: [{ argument: "id", name: "id", in: "path", style: "matrix", explode: false, required: true }],
  };
  assert.ok(needsEncodings(matrix));
  assert.throws(() => buildRequest(matrix, { id: 1 }, "http://h"), /needs the encodings feature/);
  const cookie: HttpBinding = {
    ...deep,
    parameters: [{ argument: "s", name: "session", in: "cookie", style: "form", explode: true, required: false }],
  };
  assert.ok(needsEncodings(cookie));
  assert.throws(
    () => buildRequest(cookie, { s: "x" }, "http://h"),
    /cookie parameter 'session' needs the encodings feature/,
  );
  assert.is(buildRequest(cookie, { s: "a b" }, "http://h", requestEncodings()).headers.cookie, "session=a%20b");
});

test.run();
