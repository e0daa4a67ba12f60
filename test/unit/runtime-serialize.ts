import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildRequest, joinUrl } from "../../runtime/src/upstream/request.js";
import {
  ArgumentError,
  serializeHeaderParameter,
  serializePathParameter,
  serializeQueryParameter,
} from "../../runtime/src/upstream/serialize.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";
import { serializeCookieParameter } from "../../runtime/src/features/encodings/styles.js";
import type { HttpBinding, ParameterBinding, ParameterLocation, ParameterStyle } from "../../runtime/src/api/types.js";

/** The encodings feature: the rarer styles and the form bodies below are its. */
const encodings = requestEncodings();
const build: typeof buildRequest = (http, args, baseUrl) => buildRequest(http, args, baseUrl, encodings);

const STRING = "blue";
const ARRAY = ["blue", "black", "brown"];
const OBJECT = { R: 100, G: 200, B: 150 };

function p(
  location: ParameterLocation,
  style: ParameterStyle,
  explode: boolean,
  extra: Partial<ParameterBinding> = {},
): ParameterBinding {
  return { argument: "color", name: "color", in: location, style, explode, required: false, ...extra };
}

// Rows of the OpenAPI style-examples table (RFC 6570 semantics for label, as in OAS 3.1.1+).
const pathCases: Array<[ParameterStyle, boolean, unknown, string]> = [
  ["simple", false, STRING, "blue"],
  ["simple", false, ARRAY, "blue,black,brown"],
  ["simple", false, OBJECT, "R,100,G,200,B,150"],
  ["simple", true, ARRAY, "blue,black,brown"],
  ["simple", true, OBJECT, "R=100,G=200,B=150"],
  ["label", false, STRING, ".blue"],
  ["label", false, ARRAY, ".blue,black,brown"],
  ["label", false, OBJECT, ".R,100,G,200,B,150"],
  ["label", true, ARRAY, ".blue.black.brown"],
  ["label", true, OBJECT, ".R=100.G=200.B=150"],
  ["matrix", false, STRING, ";color=blue"],
  ["matrix", false, ARRAY, ";color=blue,black,brown"],
  ["matrix", false, OBJECT, ";color=R,100,G,200,B,150"],
  ["matrix", true, ARRAY, ";color=blue;color=black;color=brown"],
  ["matrix", true, OBJECT, ";R=100;G=200;B=150"],
];
for (const [style, explode, value, expected] of pathCases) {
  test(`path ${style} explode=${explode} ${JSON.stringify(value)} -> ${expected}`, () => {
    assert.is(serializePathParameter(p("path", style, explode), value, encodings), expected);
  });
}

const queryCases: Array<[ParameterStyle, boolean, unknown, string]> = [
  ["form", true, STRING, "color=blue"],
  ["form", true, ARRAY, "color=blue&color=black&color=brown"],
  ["form", true, OBJECT, "R=100&G=200&B=150"],
  ["form", false, STRING, "color=blue"],
  ["form", false, ARRAY, "color=blue,black,brown"],
  ["form", false, OBJECT, "color=R,100,G,200,B,150"],
  // RFC 6570: an empty list or map is undefined, so the parameter is left out.
  ["form", true, [], ""],
  ["form", false, [], ""],
  ["form", true, {}, ""],
  ["pipeDelimited", false, [], ""],
  ["deepObject", true, {}, ""],
  ["spaceDelimited", false, ARRAY, "color=blue%20black%20brown"],
  ["spaceDelimited", false, OBJECT, "color=R%20100%20G%20200%20B%20150"],
  ["pipeDelimited", false, ARRAY, "color=blue|black|brown"],
  ["pipeDelimited", false, OBJECT, "color=R|100|G|200|B|150"],
  ["spaceDelimited", true, ARRAY, "color=blue&color=black&color=brown"],
  ["deepObject", true, OBJECT, "color[R]=100&color[G]=200&color[B]=150"],
  ["form", true, 42, "color=42"],
  ["form", true, false, "color=false"],
];
for (const [style, explode, value, expected] of queryCases) {
  test(`query ${style} explode=${explode} ${JSON.stringify(value)} -> ${expected}`, () => {
    assert.is(serializeQueryParameter(p("query", style, explode), value, encodings), expected);
  });
}

test("query values are percent-encoded per RFC 3986 unless allowReserved", () => {
  assert.is(
    serializeQueryParameter(p("query", "form", true), "a b&c=d/é!*", encodings),
    "color=a%20b%26c%3Dd%2F%C3%A9%21%2A",
  );
  assert.is(
    serializeQueryParameter(p("query", "form", true, { allowReserved: true }), "a/b?c:d,e&f#g", encodings),
    "color=a/b?c:d,e%26f%23g",
  );
  assert.is(serializeQueryParameter(p("query", "form", false), ["a,b", "c"], encodings), "color=a%2Cb,c");
});

test("path values are percent-encoded", () => {
  assert.is(serializePathParameter(p("path", "simple", false), "a/b c?", encodings), "a%2Fb%20c%3F");
});

test("plain path ids (integers, unreserved characters without a dot) encode as themselves; the rest is encoded", () => {
  const simple = p("path", "simple", false);
  const cases: Array<[unknown, string]> = [
    [0, "0"],
    [-42, "-42"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    ["id_Q7-x~9", "id_Q7-x~9"],
    [1.5, "1.5"],
    [1e21, "1e%2B21"],
    ["a.b", "a.b"],
    ["ü", "%C3%BC"],
    ["a%2Fb", "a%252Fb"],
    [true, "true"],
  ];
  for (const [value, expected] of cases) assert.is(serializePathParameter(simple, value, encodings), expected);
  // Label and matrix styles still add their prefix to a plain id.
  assert.is(serializePathParameter(p("path", "label", false), 7, encodings), ".7");
  assert.is(serializePathParameter(p("path", "matrix", false), "x1", encodings), ";color=x1");
  for (const dots of [".", "..", "%2E%2E", "%2e"])
    assert.throws(
      () => serializePathParameter(simple, dots, encodings),
      (e: unknown) => e instanceof ArgumentError,
    );
});

test("deepObject nests objects and indexes arrays (qs/Rails convention, read by Prism and Stripe)", () => {
  assert.is(
    serializeQueryParameter(
      p("query", "deepObject", true, { name: "filter" }),
      { a: { b: 1 }, tags: ["x", "y"] },
      encodings,
    ),
    "filter[a][b]=1&filter[tags][0]=x&filter[tags][1]=y",
  );
  assert.is(
    serializeQueryParameter(p("query", "deepObject", true, { name: "expand" }), ["a", "b.c"], encodings),
    "expand[0]=a&expand[1]=b.c",
  );
  assert.is(
    serializeQueryParameter(p("query", "deepObject", true, { name: "f" }), { list: [{ k: "v" }] }, encodings),
    "f[list][0][k]=v",
  );
});

test("header simple and header injection guard", () => {
  assert.is(serializeHeaderParameter(p("header", "simple", false), ARRAY), "blue,black,brown");
  assert.is(serializeHeaderParameter(p("header", "simple", true), OBJECT), "R=100,G=200,B=150");
  assert.is(serializeHeaderParameter(p("header", "simple", false), OBJECT), "R,100,G,200,B,150");
  assert.throws(
    () => serializeHeaderParameter(p("header", "simple", false), "x\r\nSet-Cookie: a=b"),
    (e: unknown) => e instanceof ArgumentError,
  );
});

test("cookie form", () => {
  assert.is(serializeCookieParameter(p("cookie", "form", false), STRING), "color=blue");
  assert.is(serializeCookieParameter(p("cookie", "form", false), ARRAY), "color=blue,black,brown");
  assert.is(serializeCookieParameter(p("cookie", "form", true), ARRAY), "color=blue; color=black; color=brown");
  assert.is(serializeCookieParameter(p("cookie", "form", true), OBJECT), "R=100; G=200; B=150");
});

test("joinUrl keeps the base path", () => {
  assert.is(joinUrl("http://h/api/v1", "/pets"), "http://h/api/v1/pets");
  assert.is(joinUrl("http://h/api/v1/", "/pets"), "http://h/api/v1/pets");
  assert.is(joinUrl("http://h", "/pets"), "http://h/pets");
});

const binding: HttpBinding = {
  method: "post",
  path: "/stores/{storeId}/pets",
  parameters: [
    { argument: "storeId", name: "storeId", in: "path", style: "simple", explode: false, required: true },
    { argument: "tags", name: "tags", in: "query", style: "form", explode: true, required: false },
    { argument: "limit", name: "limit", in: "query", style: "form", explode: true, required: false },
    { argument: "traceId", name: "X-Trace-Id", in: "header", style: "simple", explode: false, required: false },
    { argument: "accept", name: "Accept", in: "header", style: "simple", explode: false, required: false },
    { argument: "session", name: "session", in: "cookie", style: "form", explode: true, required: false },
  ],
  body: {
    kind: "properties",
    properties: { petName: "name", petTag: "tag" },
    mediaType: "application/json",
    required: true,
  },
  response: { accept: ["application/json", "application/problem+json"] },
};

test("buildRequest assembles URL, headers and body", () => {
  const req = build(
    binding,
    { storeId: "s 1", tags: ["a", "b"], traceId: "t-1", accept: "text/evil", session: "xyz", petName: "Rex" },
    "http://127.0.0.1:9/api/v1",
  );
  assert.is(req.method, "POST");
  assert.is(req.url, "http://127.0.0.1:9/api/v1/stores/s%201/pets?tags=a&tags=b");
  assert.is(req.safeUrl, "http://127.0.0.1:9/api/v1/stores/s%201/pets");
  assert.is(req.path, "/stores/s%201/pets");
  assert.is(req.headers["x-trace-id"], "t-1");
  assert.is(req.headers.accept, "application/json, application/problem+json"); // Accept parameter ignored
  assert.is(req.headers.cookie, "session=xyz");
  assert.is(req.headers["content-type"], "application/json");
  assert.equal(JSON.parse(String(req.body)), { name: "Rex" });
});

test("buildRequest: each call's own base URL, its userinfo sent but not shown, a URL in a path template redacted too", () => {
  const pet: HttpBinding = {
    method: "get",
    path: "/pets/{id}",
    parameters: [{ argument: "id", name: "id", in: "path", style: "simple", explode: false, required: true }],
    response: { accept: [] },
  };
  // Alternating bases (server variables, a fleet in one process) must not reuse the last one's parts.
  for (let i = 0; i < 2; i++) {
    const secret = buildRequest(pet, { id: 1 }, "http://user:S3CRET@h1/api/?q=1#f");
    assert.is(secret.url, "http://user:S3CRET@h1/api/pets/1");
    assert.is(secret.safeUrl, "http://***@h1/api/pets/1");
    const plain = buildRequest(pet, { id: 2 }, "https://h2");
    assert.is(plain.url, "https://h2/pets/2");
    assert.is(plain.safeUrl, "https://h2/pets/2");
  }
  const proxied = buildRequest({ ...pet, path: "/proxy/http://u:p@inner/{id}" }, { id: 3 }, "https://h2");
  assert.is(proxied.safeUrl, "https://h2/proxy/http://***@inner/3");
});

test("buildRequest: default Accept, form body, optional body omitted", () => {
  const form: HttpBinding = {
    method: "put",
    path: "/x",
    parameters: [],
    body: { kind: "whole", argument: "body", mediaType: "application/x-www-form-urlencoded", required: false },
    response: { accept: [] },
  };
  const withBody = build(form, { body: { a: "1 2", list: ["x", "y"], nested: { k: true } } }, "http://h");
  assert.is(withBody.headers.accept, "application/json, */*;q=0.8");
  assert.is(withBody.headers["content-type"], "application/x-www-form-urlencoded");
  // No `encoding`: style form, explode true (arrays repeat the key, objects spread their properties).
  assert.is(withBody.body, "a=1+2&list=x&list=y&k=true");
  const without = build(form, {}, "http://h");
  assert.is(without.body, undefined);
  assert.is(without.headers["content-type"], undefined);
});

test("form body fields follow their OpenAPI encoding (deepObject, form explode false, JSON, delimited)", () => {
  const form: HttpBinding = {
    method: "post",
    path: "/f",
    parameters: [],
    body: {
      kind: "properties",
      properties: {
        address: "address",
        ids: "ids",
        meta: "meta",
        codes: "codes",
        tags: "tags",
        empty: "empty",
        name: "name",
      },
      mediaType: "application/x-www-form-urlencoded",
      required: true,
      encoding: {
        address: { style: "deepObject", explode: true },
        ids: { style: "form", explode: false },
        meta: { contentType: "application/json" },
        codes: { style: "pipeDelimited", explode: false },
      },
    },
    response: { accept: ["application/json"] },
  };
  const req = build(
    form,
    {
      address: { city: "Köln", lines: ["a", "b"] },
      ids: [1, 2],
      meta: { k: [true] },
      codes: ["x", "y"],
      tags: ["p", "q"],
      empty: [],
      name: "a&b",
    },
    "http://h",
  );
  assert.is(
    req.body,
    "address%5Bcity%5D=K%C3%B6ln&address%5Blines%5D%5B0%5D=a&address%5Blines%5D%5B1%5D=b&ids=1%2C2&meta=%7B%22k%22%3A%5Btrue%5D%7D&codes=x%7Cy&tags=p&tags=q&name=a%26b",
  );
  // Decoded, the delimiters are the style's own.
  assert.is(new URLSearchParams(String(req.body)).get("ids"), "1,2");
  // A property named like an Object.prototype member is a field, not an inherited encoding.
  assert.is(build(form, { name: "x" }, "http://h").body, "name=x");
  // Spaces: `+` in a plain form field, `%20` in a field with an encoding entry (RFC 6570: `+` is reserved).
  assert.is(
    build(form, { address: { city: "New York" }, name: "a b" }, "http://h").body,
    "address%5Bcity%5D=New%20York&name=a+b",
  );
});

test("buildRequest: query pairs written into the path key (after # or ?) are sent as query, before the parameters; the fragment mark never", () => {
  const overload: HttpBinding = {
    method: "post",
    path: "/generateThumbnail#overload=stream",
    parameters: [{ argument: "width", name: "width", in: "query", style: "form", explode: true, required: true }],
    body: { kind: "whole", argument: "body", mediaType: "application/octet-stream", required: true, binary: true },
    response: { accept: ["application/octet-stream"] },
  };
  const req = build(overload, { width: 99, body: "AAEC" }, "http://h/vision/v3");
  // AWS-style specs fix real query items this way (`#uploads`, `#format=sdk`), so they are sent.
  assert.is(req.url, "http://h/vision/v3/generateThumbnail?overload=stream&width=99");
  assert.is(req.path, "/generateThumbnail");
  assert.equal([...Buffer.from(req.body as Buffer)], [0, 1, 2]);
  const view: HttpBinding = {
    method: "get",
    path: "/build/{file}?view=fileinfo",
    parameters: [
      { argument: "file", name: "file", in: "path", style: "simple", explode: false, required: true },
      { argument: "arch", name: "arch", in: "query", style: "form", explode: true, required: false },
    ],
    response: { accept: ["application/xml"] },
  };
  assert.is(build(view, { file: "a b", arch: "x86" }, "http://h").url, "http://h/build/a%20b?view=fileinfo&arch=x86");
  assert.is(build(view, { file: "f" }, "http://h").url, "http://h/build/f?view=fileinfo");
});

test("buildRequest: text/plain body", () => {
  const text: HttpBinding = {
    method: "post",
    path: "/t",
    parameters: [],
    body: { kind: "whole", argument: "body", mediaType: "text/plain", required: true },
    response: { accept: ["text/plain"] },
  };
  assert.is(build(text, { body: 12 }, "http://h").body, "12");
});

test.run();
