/**
 * Feature `encodings`, included when the API's operations need it: form and multipart request
 * bodies, file content (base64, `data:` URIs, or what feature `uploads` read for a reference), and
 * cookie parameters, the parameter styles label, matrix, deepObject, spaceDelimited and pipeDelimited, and path
 * templates that carry a query (path-template.ts). A JSON API carries none of it.
 */
import type { Feature } from "../../cli/features.js";
import type { Encodings } from "../../upstream/body.js";
import { encodeFeatureBody } from "./forms.js";
import { splitPathTemplate } from "./path-template.js";
import { pathText, serializeCookieParameter, serializeStyled } from "./styles.js";

export const encodings: Feature = {
  name: "encodings",
  plugs: () => ({ encodings: requestEncodings() }),
};

/** The encodings of a server. */
export function requestEncodings(): Encodings {
  return {
    path: pathText,
    styled: serializeStyled,
    cookie: serializeCookieParameter,
    body: encodeFeatureBody,
    splitPath: splitPathTemplate,
  };
}
