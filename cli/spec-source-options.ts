import type { Argv, Options } from "yargs";

/**
 * The options that say where a spec and its `$ref`s may be read from, shared by every command that
 * loads a spec (generate, diff, lint) so their names, defaults and types cannot drift apart.
 * `refRootDefault` completes `--ref-root`'s help with what that command does without it.
 */
export function specSourceFlags(refRootDefault: string) {
  return {
    "allow-remote": {
      type: "boolean",
      default: false,
      describe: "Allow reading specs and $refs over HTTP(S)",
    },
    "ref-root": {
      type: "string",
      describe: `Folder file $refs may read from (default: ${refRootDefault})`,
    },
  } as const satisfies Record<string, Options>;
}

/** `y` with the spec-source options (specSourceFlags) declared. */
export function specSourceOptions<T>(y: Argv<T>, refRootDefault: string) {
  const flags = specSourceFlags(refRootDefault);
  return y.option("allow-remote", flags["allow-remote"]).option("ref-root", flags["ref-root"]);
}
