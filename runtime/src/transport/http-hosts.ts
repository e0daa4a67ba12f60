/** Who may reach the HTTP transport: the `Host` and `Origin` checks against DNS rebinding. */

/** Loopback host names (the Host check's default for a loopback bind, and the origins always allowed). */
export const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The `Host` check of `allowedHosts` (none for []); a missing Host is refused. */
export function hostChecker(
  allowed: readonly string[],
  port: number,
): ((value: string | undefined) => boolean) | undefined {
  if (allowed.length === 0) return undefined;
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  for (const entry of allowed.map((e) => e.trim().toLowerCase()).filter(Boolean)) {
    if (/:\d+$/.test(entry)) exact.add(entry);
    else anyPort.add(entry);
  }
  return (value) => {
    if (value === undefined) return false;
    const host = value.trim().toLowerCase();
    if (exact.has(host)) return true;
    // A Host without a port means the scheme's default port (80 for http).
    if (port === 80 && exact.has(`${host}:80`)) return true;
    const name = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host)?.[1];
    return name !== undefined && anyPort.has(name);
  };
}

/** True for loopback origins and for exact matches in `allowed`. */
export function isAllowedOrigin(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTNAMES.has(url.hostname);
  } catch {
    return false; // includes the literal "null" origin
  }
}
