/**
 * The OTLP exporter, set up from the standard `OTEL_*` environment (endpoint, headers, timeout,
 * batch delay and export interval are read by the official packages themselves) and registered as
 * the global tracer and meter providers. Loaded only when an endpoint is set: a server that does not
 * export never loads the SDK.
 */
import { metrics, trace } from "@opentelemetry/api";
import type { OtlpExport } from "./otlp-settings.js";

/** Identity of the service in every export (`OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` win). */
export interface ServiceIdentity {
  name: string;
  version: string;
}

/** Starts the export and registers the providers; resolves to what flushes and stops them. */
export async function startExport(settings: OtlpExport, service: ServiceIdentity): Promise<() => Promise<void>> {
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = await import(
    "@opentelemetry/resources"
  );
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": service.name, "service.version": service.version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const stops: Array<() => Promise<void>> = [];
  if (settings.traces) {
    const { TracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace");
    const { OTLPTraceExporter } =
      settings.traces === "http/json"
        ? await import("@opentelemetry/exporter-trace-otlp-http")
        : await import("@opentelemetry/exporter-trace-otlp-proto");
    const provider = new TracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
    });
    trace.setGlobalTracerProvider(provider);
    stops.push(() => provider.shutdown());
  }
  if (settings.metrics) {
    const { MeterProvider, PeriodicExportingMetricReader } = await import("@opentelemetry/sdk-metrics");
    const { OTLPMetricExporter } =
      settings.metrics === "http/json"
        ? await import("@opentelemetry/exporter-metrics-otlp-http")
        : await import("@opentelemetry/exporter-metrics-otlp-proto");
    const interval = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL);
    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter(),
      ...(Number.isInteger(interval) && interval > 0 ? { exportIntervalMillis: interval } : {}),
    });
    const provider = new MeterProvider({ resource, readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    stops.push(() => provider.shutdown());
  }
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
