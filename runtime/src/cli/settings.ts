/**
 * Reading settings from a flag or, when the flag is absent, an environment variable; and dropping
 * the environment an MCP Bundle host leaves behind: a bundle's manifest maps each setting to
 * `${user_config.NAME}`, and hosts have been seen to pass that text itself, unsubstituted, for an
 * optional setting the user left empty. Such a value is no setting at all: it must not become a
 * credential sent upstream or a base URL.
 */
import { nonEmpty } from "../upstream/server-url.js";

export { nonEmpty };

/** Thrown for a bad setting; `main` reports it on stderr and sets exit code 2. */
export class UsageError extends Error {}

/** `text` as an integer from `min` to `max`; a UsageError naming `setting` otherwise. */
export function integerSetting(setting: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${setting} must be an integer from ${min} to ${max}`);
  return value;
}

/** An integer from flag `--flag`'s value, else from `env[envName]` (if named), else undefined (the default applies). */
export function integerFlagOrEnv(
  flag: string,
  value: string | undefined,
  env: NodeJS.ProcessEnv,
  envName: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value !== undefined) return integerSetting(flag, value, min, max);
  const fromEnv = envName === undefined ? undefined : nonEmpty(env[envName]);
  return fromEnv === undefined ? undefined : integerSetting(envName!, fromEnv, min, max);
}

/** An unsubstituted MCP Bundle placeholder (`${user_config.API_TOKEN}`). */
const PLACEHOLDER = /^\$\{user_config\.[^}]*\}$/;

/** Removes unsubstituted bundle placeholders from `env` (in place); returns the names removed. */
export function dropBundlePlaceholders(env: NodeJS.ProcessEnv): string[] {
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && PLACEHOLDER.test(value.trim())) {
      delete env[name];
      dropped.push(name);
    }
  }
  return dropped.sort();
}
