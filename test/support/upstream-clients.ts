/** The upstream HTTP clients the upstream tests run against, each the same way: got (Node) and fetch (feature `fetch`). */
import type { UpstreamClient } from "../../runtime/src/upstream/client-slot.js";
import { gotClient } from "../../runtime/src/upstream/got-client.js";
import { fetchClient } from "../../runtime/src/features/fetch/fetch-client.js";

/** Each client with its name, and the module and export a child process imports it from. */
export const UPSTREAM_CLIENTS: ReadonlyArray<{
  name: string;
  client: UpstreamClient;
  module: string;
  exported: string;
}> = [
  {
    name: "got",
    client: gotClient,
    module: new URL("../../runtime/src/upstream/got-client.js", import.meta.url).href,
    exported: "gotClient",
  },
  {
    name: "fetch",
    client: fetchClient,
    module: new URL("../../runtime/src/features/fetch/fetch-client.js", import.meta.url).href,
    exported: "fetchClient",
  },
];
