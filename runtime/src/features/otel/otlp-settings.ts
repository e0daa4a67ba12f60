/**
 * Which OTLP export the standard `OTEL_*` environment asks for. Pure: the exporter packages load
 * only when this says that an endpoint is set (sdk.ts).
 */

/** The OTLP/HTTP encodings served (`grpc` would need another exporter and HTTP/2 stack). */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** What to export: traces and metrics each on or off, and the encoding of each. */
export interface OtlpExport {
  traces?: OtlpProtocol;
  metrics?: OtlpProtocol;
}

/** Reads the environment; throws an Error naming the variable for a value the server cannot honour. */
export function otlpExport(env: NodeJS.ProcessEnv): OtlpExport {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === "true") return {};
  const common = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const result: OtlpExport = {};
  for (const [signal, key] of [
    ["TRACES", "traces"],
    ["METRICS", "metrics"],
  ] as const) {
    const endpoint = set(env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]) ?? common;
    const exporter = set(env[`OTEL_${signal}_EXPORTER`])?.toLowerCase();
    if (endpoint === undefined || exporter === "none") continue;
    if (exporter !== undefined && exporter !== "otlp")
      throw new Error(`OTEL_${signal}_EXPORTER=${exporter} is not served: use otlp (or none)`);
    result[key] = protocolOf(env, signal);
  }
  return result;
}

function protocolOf(env: NodeJS.ProcessEnv, signal: "TRACES" | "METRICS"): OtlpProtocol {
  const name = set(env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`])
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  // The specification's default for OTLP is http/protobuf.
  const value = set(env[name]) ?? "http/protobuf";
  if (value === "http/protobuf" || value === "http/json") return value;
  throw new Error(`${name}=${value} is not served: use http/protobuf or http/json`);
}

function set(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
