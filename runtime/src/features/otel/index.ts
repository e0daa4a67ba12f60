/**
 * Feature `otel`: OpenTelemetry traces and metrics per the MCP semantic conventions. The server
 * depends on `@opentelemetry/api` (a no-op until an SDK is registered, by the host with
 * `node --import`, or here): when `OTEL_EXPORTER_OTLP_ENDPOINT` (or a per-signal endpoint) is set,
 * the official OTLP/HTTP exporters load and export (`OTEL_EXPORTER_OTLP_PROTOCOL` http/protobuf or
 * http/json).
 */
import type { Feature } from "../../cli/features.js";
import { otelObserver } from "./observer.js";
import { otlpExport } from "./otlp-settings.js";

export const otel: Feature = {
  name: "otel",
  usage: `  (env OTEL_EXPORTER_OTLP_ENDPOINT) OpenTelemetry: export traces and metrics over OTLP/HTTP
                     (env OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or http/json; the other
                     standard OTEL_* variables apply); without it spans go to an SDK the host
                     registers (node --import), else nowhere
`,
  async plugs({ env, info, logger }) {
    const settings = otlpExport(env);
    let close: (() => Promise<void>) | undefined;
    if (settings.traces || settings.metrics) {
      const { startExport } = await import("./sdk.js");
      close = await startExport(settings, { name: info.name, version: info.version });
      // The endpoint may carry credentials in its userinfo: only the encodings are named.
      logger.info(
        `OpenTelemetry: exporting ${[settings.traces && `traces (${settings.traces})`, settings.metrics && `metrics (${settings.metrics})`].filter(Boolean).join(" and ")} over OTLP`,
      );
    }
    return { observer: otelObserver(info.name, info.version), ...(close ? { close } : {}) };
  },
};
