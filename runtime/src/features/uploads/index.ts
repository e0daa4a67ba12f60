/**
 * Feature `uploads`, included when an operation takes file content (a binary body, or multipart
 * file parts): a file argument may be a reference instead of base64, `{"url": "https://…"}` the
 * server fetches (public addresses only, size cap, timeout) or, over stdio and only with
 * `--upload-dir`, `{"path": "…"}` inside that folder. The bytes then go upstream unchanged and never
 * through the model.
 */
import { realpathSync, statSync } from "node:fs";
import type { Feature, FeatureContext } from "../../cli/features.js";
import { integerFlagOrEnv, nonEmpty } from "../../cli/settings.js";
import { uploadResolver, type UploadSettings } from "./resolve-uploads.js";

/** Default largest file read for one reference (25 MiB). */
export const DEFAULT_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
/** Default deadline of one URL fetch, redirects included. */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 30_000;

/** The settings the flags and environment give; an Error for a wrong one. */
export function uploadSettings({ flags, env, http }: Pick<FeatureContext, "flags" | "env" | "http">): UploadSettings {
  const flag = (name: string) => flags[name] as string | undefined;
  const dir = nonEmpty(flag("upload-dir")) ?? nonEmpty(env.MCP_UPLOAD_DIR);
  if (dir !== undefined && http)
    throw new Error(
      "--upload-dir (MCP_UPLOAD_DIR) is for stdio only: over HTTP every caller could read the server's files",
    );
  return {
    maxBytes:
      integerFlagOrEnv("--upload-max-bytes", flag("upload-max-bytes"), env, "MCP_UPLOAD_MAX_BYTES", 1, 2 ** 31) ??
      DEFAULT_UPLOAD_MAX_BYTES,
    timeoutMs:
      integerFlagOrEnv("--upload-timeout", flag("upload-timeout"), env, "MCP_UPLOAD_TIMEOUT_MS", 1, 600_000) ??
      DEFAULT_UPLOAD_TIMEOUT_MS,
    allowPrivate: flags["upload-allow-private"] === true || env.MCP_UPLOAD_ALLOW_PRIVATE === "1",
    root: dir === undefined ? undefined : folder(dir),
    pathsOff: http
      ? 'a {"path"} reference is never read over HTTP; give {"url"} or the content'
      : 'a {"path"} reference needs a folder the server allows (start it with --upload-dir DIR); give {"url"} or the content',
  };
}

/** The real path of the allowed folder; an Error when it is not a folder. */
function folder(dir: string): string {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    throw new Error(`--upload-dir ${dir}: no such folder`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`--upload-dir ${dir}: not a folder`);
  return real;
}

export const uploads: Feature = {
  name: "uploads",
  flags: {
    "upload-dir": { type: "string" },
    "upload-max-bytes": { type: "string" },
    "upload-timeout": { type: "string" },
    "upload-allow-private": { type: "boolean" },
  },
  usage: `  --upload-dir DIR   stdio only: a file argument may be {"path": …} inside DIR (symlinks
                     resolved; env MCP_UPLOAD_DIR; default: no local files)
  --upload-max-bytes N
                     largest file a {"url"} or {"path"} reference reads
                     (env MCP_UPLOAD_MAX_BYTES, default ${DEFAULT_UPLOAD_MAX_BYTES})
  --upload-timeout MS
                     deadline of one {"url"} fetch, redirects included
                     (env MCP_UPLOAD_TIMEOUT_MS, default ${DEFAULT_UPLOAD_TIMEOUT_MS})
  --upload-allow-private
                     DANGEROUS: let {"url"} reach loopback, private and link-local
                     addresses (env MCP_UPLOAD_ALLOW_PRIVATE=1; refused by default)
`,
  plugs(context) {
    const settings = uploadSettings(context);
    if (settings.allowPrivate)
      context.logger.warn(
        '--upload-allow-private: a {"url"} upload may reach loopback, private and link-local addresses (this machine, its network, cloud metadata)',
      );
    return { uploads: uploadResolver(settings) };
  },
};
