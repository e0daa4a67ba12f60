/**
 * Which of the runtime's optional parts (runtime/features.json, runtime/src/features/) a project
 * gets: those asked for with `--with` (remembered by the project), those its surface needs, and
 * those they build on. A server vendors only these, and installs only their dependencies.
 */
import {
  chooseSurface,
  encodedByFeature,
  isTextualMedia,
  styledByFeature,
  type HttpBinding,
  type ListedTool,
  type SurfaceName,
} from "../../shared/contract.js";
import { readPackageJson } from "../../shared/package-root.js";

/** One feature's entry in runtime/features.json. */
export interface FeatureEntry {
  summary: string;
  /** npm packages only this feature imports (versions in runtime/package.json). */
  dependencies: string[];
  /** npm packages only the project's build needs for it (devDependencies; versions in runtime/package.json). */
  buildDependencies?: string[];
  /** Features it builds on. */
  requires: string[];
}

/** runtime/features.json. */
export interface FeatureCatalog {
  coreDependencies: string[];
  features: Record<string, FeatureEntry>;
}

/**
 * Whether requests of an operation need feature `encodings`: a parameter style or body the core
 * leaves to it (the runtime's own predicates), or a path template that carries a query.
 */
export function needsEncodings(http: HttpBinding): boolean {
  return (
    http.parameters.some(styledByFeature) ||
    (http.body !== undefined && encodedByFeature(http.body)) ||
    /[#?]/.test(http.path)
  );
}

/** Whether an operation may answer with binary content: a success media type that is neither JSON nor text (any type too). */
export function answersBinary(http: HttpBinding): boolean {
  return http.response.accept.some((type) => !isTextualMedia(type.split(";")[0]!.trim().toLowerCase()));
}

/** The runtime's feature catalogue. */
export function featureCatalog(): FeatureCatalog {
  return readPackageJson("runtime/features.json") as unknown as FeatureCatalog;
}

/** The features a project gets, sorted, and why each that was not asked for is there. */
export interface FeatureChoice {
  features: string[];
  /** Feature → why it was added (absent for the ones asked for). */
  added: Record<string, string>;
}

/** What the API itself needs of the runtime. */
export interface ApiNeeds {
  /** The API declares security schemes that its operations use. */
  security: boolean;
  /** An operation of the API pages. */
  pagination: boolean;
  /** A scheme its operations use lets each user sign in (OAuth authorization code, OpenID Connect). */
  userSignIn?: boolean;
  /** An operation sends a form, multipart or file body, a cookie, or a parameter in a style the core does not serialise. */
  encodings?: boolean;
  /** An operation takes file content (a binary body or multipart file parts). */
  uploads?: boolean;
  /** The spec's server URL has variables the user sets. */
  serverVariables?: boolean;
  /** The project has custom code (src/custom/): tools, resources, prompts or hooks of its own. */
  customCode?: boolean;
  /** The project's custom code calls `ctx.clientRequest` (legacy server→client requests). */
  clientRequests?: boolean;
  /** An operation asks the user to confirm each call (`x-mcp-confirm`). */
  confirm?: boolean;
  /** An operation answers with binary content (a media type that is neither JSON nor text). */
  binaryResponses?: boolean;
}

/**
 * The features of a project: `asked` (from `--with`, else the previous generation's); `auth` when
 * the API declares security, `pagination` when one of its operations pages, `encodings` when one
 * sends a form, multipart or file body or a parameter in a rarer style, `uploads` when one takes
 * file content, `binary-links` when one answers with binary content, `server-vars` when the
 * server URL has variables, `custom` when the project has custom code (src/custom/), `client-requests`
 * when that code calls `clientRequest`; `search` when the
 * surface is search or code or `auto` would serve search for these tools, `large-data` when
 * `auto` would (whatever the surface), `code` for the code surface; and every feature one of
 * them requires. Throws on an unknown name.
 */
export function chooseFeatures(
  asked: readonly string[],
  surface: SurfaceName,
  tools: readonly ListedTool[],
  needs: ApiNeeds,
  catalog: FeatureCatalog = featureCatalog(),
): FeatureChoice {
  const unknown = asked.filter((name) => !Object.hasOwn(catalog.features, name));
  if (unknown.length > 0)
    throw new Error(
      `unknown feature${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (one of ${Object.keys(catalog.features).join(", ")})`,
    );
  const chosen = new Set(asked);
  const added: Record<string, string> = {};
  const add = (name: string, why: string): void => {
    if (chosen.has(name)) return;
    chosen.add(name);
    added[name] = why;
  };
  if (needs.security) add("auth", "the API declares security schemes");
  if (needs.pagination) add("pagination", "operations of the API page");
  if (needs.serverVariables) add("server-vars", "the server URL has variables");
  if (needs.encodings) add("encodings", "operations of the API send forms, files, cookies or rarer parameter styles");
  if (needs.uploads) add("uploads", "operations of the API take files (a binary body or multipart file parts)");
  if (needs.userSignIn)
    add("user-oauth", "the API lets each user sign in (OAuth authorization code or OpenID Connect)");
  if (needs.customCode) add("custom", "the project has custom code (src/custom/)");
  if (needs.clientRequests) add("client-requests", "the project's custom code calls clientRequest");
  if (needs.confirm) add("confirm", "operations ask the user to confirm each call (x-mcp-confirm)");
  if (needs.binaryResponses) add("binary-links", "operations of the API answer with binary content");
  if (surface === "code") add("code", "the default surface is code");
  if (surface === "search") add("search", "the default surface is search");
  const auto = chooseSurface("auto", tools.length, () => tools);
  const large = auto.reason.replace(/^auto: /, "");
  if (surface === "auto" && auto.surface === "search") add("search", `the auto surface serves search (${large})`);
  // What makes auto serve search (too many tools, too many tokens of them) makes the data large too.
  if (auto.surface === "search") add("large-data", `the API is large (${large})`);
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...chosen])
      for (const needed of catalog.features[name]!.requires)
        if (!chosen.has(needed)) {
          add(needed, `${name} builds on it`);
          grew = true;
        }
  }
  return { features: [...chosen].sort(), added };
}

/** The npm packages a project with `features` installs: the core's and the features', sorted. */
export function runtimeDependencies(features: readonly string[], catalog: FeatureCatalog = featureCatalog()): string[] {
  return [
    ...new Set([...catalog.coreDependencies, ...features.flatMap((f) => catalog.features[f]!.dependencies)]),
  ].sort();
}

/** The npm packages only the build of a project with `features` needs (its devDependencies beyond the usual), sorted. */
export function buildDependencies(features: readonly string[], catalog: FeatureCatalog = featureCatalog()): string[] {
  return [...new Set(features.flatMap((f) => catalog.features[f]!.buildDependencies ?? []))].sort();
}

/** The name a feature's `index.ts` exports it by: `legacy-sse` → `legacySse`. */
export function featureExport(feature: string): string {
  return feature.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
