/**
 * Feature `clients`: client profiles (profiles/clients/ of mcp-gen, copied into data/client-profiles.json)
 * adapt what one kind of client is served: the `auto` surface from its tool limit, tool names within
 * its pattern and length, input schemas in the subset it accepts (OpenAI strict mode, Gemini).
 */
import type { Feature } from "../../cli/features.js";
import { nonEmpty } from "../../cli/settings.js";
import { parseClientProfiles, profileById } from "./client-profiles.js";
import { viewedTools } from "./client-views.js";

export const clients: Feature = {
  name: "clients",
  flags: { client: { type: "string" } },
  usage: `  --client P         serve every client as client profile P would be (claude-desktop, claude-code,
                     cursor, vscode, openai, gemini; env MCP_CLIENT); without it a client whose
                     clientInfo matches a profile gets that profile's surface budget, names and schemas
`,
  plugs(context) {
    const text = context.readData?.("client-profiles.json");
    const profiles = text === undefined ? [] : parseClientProfiles(text);
    const id = nonEmpty(context.flags.client as string | undefined) ?? nonEmpty(context.env.MCP_CLIENT);
    const forced = id === undefined ? undefined : profileById(profiles, id);
    return {
      clientViews: (server) => {
        if (forced) server.logger.info(`client profile ${forced.id} for every client (--client or MCP_CLIENT)`);
        return viewedTools(server, { profiles, forced });
      },
    };
  },
};
