/**
 * Settings from a flag, else an environment variable; and dropping what an MCP Bundle host leaves:
 * hosts pass `${user_config.NAME}` unsubstituted for an optional setting left empty, which must not
 * become a credential or a base URL.
 */
import { nonEmpty } from "../upstream/server-url.js";

export { nonEmpty };

/** `text` as an integer from `min` to `max`; an Error naming `setting` otherwise (main exits 2). */
export function integerSetting(setting: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new Error(`${setting} must be an integer from ${min} to ${max}`);
  return value;
}

/** An integer from the flag's value, else from `env[envName]` (if named), else undefined. */
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

/** A comma-separated list (flags and environment variables) as its non-empty items. */
export function listOption(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
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

/** A rate: `limit` requests per `windowMs`. */
export interface Rate {
  limit: number;
  windowMs: number;
}

const UNITS: Record<string, number> = { s: 1_000, sec: 1_000, m: 60_000, min: 60_000, h: 3_600_000, hour: 3_600_000 };

/** Reads `N/s`, `N/min` or `N/h`; throws an Error naming `setting` otherwise. */
export function parseRate(text: string, setting: string): Rate {
  const match = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const windowMs = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  const limit = match ? Number(match[1]) : 0;
  if (!windowMs || !Number.isSafeInteger(limit) || limit < 1)
    throw new Error(`${setting} must be a rate like 60/min, 5/s or 1000/h (got '${text}')`);
  return { limit, windowMs };
}
