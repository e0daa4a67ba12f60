import type { SecurityRequirement } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { pointer, resolvePointer } from "../../shared/pointer.js";
import type { SpecVersion } from "../load/load-spec.js";
import type { SecuritySchemeIR } from "./ir-types.js";

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads a `security` array; undefined when absent, a diagnostic when malformed. */
export function readRequirements(value: unknown, at: string, bag: DiagnosticBag): SecurityRequirement[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    bag.warn(Codes.securityInvalid, "`security` must be an array of requirement objects; it is ignored.", at);
    return undefined;
  }
  return value.filter(isObj).map((requirement) => {
    const out: SecurityRequirement = {};
    for (const [key, scopes] of Object.entries(requirement))
      out[key] = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : [];
    return out;
  });
}

/** Security schemes of a 2.0 or 3.x document, normalized to one shape. */
export function readSecuritySchemes(doc: Obj, version: SpecVersion, bag: DiagnosticBag): SecuritySchemeIR[] {
  const base = version === "2.0" ? ["securityDefinitions"] : ["components", "securitySchemes"];
  const container = resolvePointer(doc, pointer(...base));
  if (!isObj(container)) return [];
  const schemes: SecuritySchemeIR[] = [];
  for (const [key, raw] of Object.entries(container)) {
    const at = pointer(...base, key);
    let scheme: unknown = raw;
    if (isObj(scheme) && typeof scheme.$ref === "string") scheme = resolvePointer(doc, scheme.$ref);
    if (!isObj(scheme)) continue;
    const description = typeof scheme.description === "string" ? scheme.description.trim() : undefined;
    const common = { pointer: at, key, ...(description ? { description } : {}) };
    switch (scheme.type) {
      case "apiKey": {
        const location = scheme.in === "query" || scheme.in === "cookie" ? scheme.in : "header";
        if (typeof scheme.name !== "string" || scheme.name === "") {
          bag.warn(Codes.securityInvalid, `apiKey scheme "${key}" has no name; it cannot be sent.`, at);
          continue;
        }
        schemes.push({ ...common, type: "apiKey", in: location, name: scheme.name });
        break;
      }
      case "basic": // Swagger 2.0
        schemes.push({ ...common, type: "http", scheme: "basic" });
        break;
      case "http":
        schemes.push({
          ...common,
          type: "http",
          scheme: typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "bearer",
        });
        break;
      case "oauth2": {
        const flows = isObj(scheme.flows) ? scheme.flows : {};
        const clientCredentials = isObj(flows.clientCredentials) ? flows.clientCredentials : undefined;
        const tokenUrl =
          version === "2.0"
            ? scheme.flow === "application"
              ? scheme.tokenUrl
              : undefined
            : clientCredentials?.tokenUrl;
        const code = version === "2.0" ? (scheme.flow === "accessCode" ? scheme : undefined) : flows.authorizationCode;
        const authorizationCode =
          isObj(code) && typeof code.authorizationUrl === "string" && typeof code.tokenUrl === "string"
            ? { authorizationUrl: code.authorizationUrl, tokenUrl: code.tokenUrl }
            : undefined;
        schemes.push({
          ...common,
          type: "oauth2",
          ...(typeof tokenUrl === "string" ? { tokenUrl } : {}),
          ...(authorizationCode ? { authorizationCode } : {}),
        });
        break;
      }
      case "openIdConnect":
        schemes.push({
          ...common,
          type: "openIdConnect",
          ...(typeof scheme.openIdConnectUrl === "string" ? { openIdConnectUrl: scheme.openIdConnectUrl } : {}),
        });
        break;
      case "mutualTLS":
        schemes.push({ ...common, type: "mutualTLS" });
        break;
      default:
        bag.warn(
          Codes.securityInvalid,
          `Security scheme "${key}" has an unknown type ${JSON.stringify(scheme.type)}; it is ignored.`,
          at,
        );
    }
  }
  return schemes;
}
