/**
 * Feature `encodings`, included when the API's operations need it: form and multipart request
 * bodies, file content (base64 or `data:` URIs; local paths with `MCP_GEN_ALLOW_FILE_READ=1`), and
 * cookie parameters, the parameter styles label, matrix, deepObject, spaceDelimited and pipeDelimited, and path
 * templates that carry a query (path-template.ts). A JSON API carries none of it.
 */
import type { Feature } from "../../cli/features.js";
import type { Encodings } from "../../upstream/body.js";
import type { FileOptions } from "./files.js";
import { encodeFeatureBody } from "./forms.js";
import { splitPathTemplate } from "./path-template.js";
import { pathText, serializeCookieParameter, serializeStyled } from "./styles.js";

export const encodings: Feature = {
  name: "encodings",
  plugs: ({ env }) => ({ encodings: requestEncodings({ allowFileRead: env.MCP_GEN_ALLOW_FILE_READ === "1" }) }),
};

/** The encodings of a server; `files` says whether file arguments may name local files. */
export function requestEncodings(files: FileOptions = {}): Encodings {
  return {
    path: pathText,
    styled: serializeStyled,
    cookie: serializeCookieParameter,
    body: (binding, value) => encodeFeatureBody(binding, value, files),
    splitPath: splitPathTemplate,
  };
}
