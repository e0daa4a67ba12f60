/**
 * Which local files a spec's `$ref`s may read. Everything a `$ref` reads ends up in the generated
 * project (`data/openapi.json`, published to npm and served to every client), so a spec must not be
 * able to pull in `/etc/hostname`, `../../.ssh/config` or `/proc/self/environ`: file `$ref`s are
 * confined to the spec's own folder tree (or `--ref-root`), after symlinks are resolved, and only
 * regular files of bounded size are read.
 */
import { realpathSync } from "node:fs";
import { realpath, readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { READ_LIMITS } from "./limits.js";

/** Why a file may not be read (`missing`: it does not exist), or undefined when it may. */
export type RefFileRefusal = { missing: boolean; reason: string } | undefined;

/** The folder file `$ref`s must stay in: `--ref-root` when given, else the spec's folder; symlinks resolved. */
export function refRoot(specPath: string, refRootOption?: string): string {
  const root = resolve(refRootOption ?? dirname(specPath));
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/** The file a `$ref` names, or why it names none that mcp-gen reads. */
export type RefFile = { path: string } | { unreadable: string };

/**
 * The file a `$ref` (without its `#fragment`) names, resolved against the file that holds it, or
 * why it names no local file (another URL scheme, an encoded `/`, a host in a `file:` URL).
 * @param ref the `$ref` value, e.g. `schemas/pet.yaml#/Pet` or `file:///etc/passwd`
 * @param base the absolute path of the file the `$ref` is written in
 */
export function refFile(ref: string, base: string): RefFile {
  const target = ref.split("#")[0]!;
  if (target === "") return { path: base };
  try {
    const url = new URL(target, pathToFileURL(base));
    if (url.protocol !== "file:")
      return { unreadable: `it uses the ${url.protocol} scheme, which mcp-gen does not read` };
    return { path: fileURLToPath(url) };
  } catch (error) {
    return { unreadable: `it is not a usable file reference (${(error as Error).message})` };
  }
}

/** Whether `path` lies inside `root` (or is it). */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Checks a file a `$ref` names before anything reads it: inside `root` once symlinks are resolved,
 * a regular file (not a device, FIFO or socket; nothing under /proc, /sys or /dev), and at most
 * READ_LIMITS.maxFileBytes long. Resolves to the reason it is refused, or undefined.
 */
export async function refuseRefFile(path: string, root: string): Promise<RefFileRefusal> {
  const refused = (reason: string) => ({ missing: false, reason });
  if (!inside(root, resolve(path))) return refused(`it is outside ${root}, the folder $refs may read`);
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? { missing: true, reason: "it does not exist" }
      : refused(`it cannot be read (${code ?? String(error)})`);
  }
  if (!inside(root, real)) return refused(`it is a link to ${real}, outside ${root}`);
  if (/^\/(proc|sys|dev)(\/|$)/.test(real)) return refused("it is a special file");
  const info = await stat(real);
  if (!info.isFile()) return refused("it is not a regular file");
  if (info.size > READ_LIMITS.maxFileBytes) return refused(`it is larger than ${READ_LIMITS.maxFileBytes} bytes`);
  return undefined;
}

/**
 * A file resolver for swagger-parser (json-schema-ref-parser) that replaces its own: it reads only
 * what `refuseRefFile` allows, so nested `$ref`s in referenced files are confined too. swagger-parser
 * replaces a resolver's error with a generic one, so the reasons are also kept in `refusals`.
 */
export function confinedFileResolver(root: string) {
  const refusals: string[] = [];
  return {
    refusals,
    order: 1,
    canRead: (file: { url: string }) => !/^[a-z][a-z0-9+.-]*:/i.test(file.url) || /^file:/i.test(file.url),
    read: async (file: { url: string }): Promise<Buffer> => {
      const named = refFile(file.url, "/");
      const refusal = "unreadable" in named ? named.unreadable : (await refuseRefFile(named.path, root))?.reason;
      const path = "path" in named ? named.path : file.url;
      if (refusal) {
        refusals.push(`${path}: ${refusal}`);
        throw new Error(`$ref to ${path} refused: ${refusal}`);
      }
      return readFile(path);
    },
  };
}
