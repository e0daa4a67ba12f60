/**
 * Binary content too large to pass inline (an image, audio, a file embedded as a resource) kept
 * one link away: the result carries a `resource_link` to it (a text naming the URI for a client
 * older than links), readable by the caller with `resources/read` (server/result-links.ts).
 */
import type { CallToolResult, ContentBlock } from "../../api/mcp-types.js";
import type { ToolDefinition } from "../../api/types.js";
import { RESULT_LINK_TTL_MS } from "../../server/result-links.js";
import type { LinkBinaries } from "../../server/result-step.js";

/** Base64 characters of a binary result shown inline at most (about 48 KB of content); larger ones are linked. */
export const INLINE_BINARY_CHARS = 65_536;

/** A base64 block over the inline size: its data and media type. */
function largeBinary(block: ContentBlock): { data: string; mimeType: string } | undefined {
  if ((block.type === "image" || block.type === "audio") && block.data.length > INLINE_BINARY_CHARS)
    return { data: block.data, mimeType: block.mimeType };
  if (block.type === "resource" && typeof block.resource.blob === "string")
    return block.resource.blob.length > INLINE_BINARY_CHARS
      ? { data: block.resource.blob, mimeType: block.resource.mimeType ?? "application/octet-stream" }
      : undefined;
  return undefined;
}

/** Images, audio and embedded binary resources above the inline size, linked; undefined when the result has none. */
export const linkLargeBinaries: LinkBinaries = (result, tool, save, asLink) =>
  result.content.some((block) => largeBinary(block) !== undefined) ? linkEach(result, tool, save, asLink) : undefined;

/** Each large binary block replaced by its link (kept as it is when the link could not be made). */
async function linkEach(
  result: CallToolResult,
  tool: ToolDefinition,
  save: Parameters<LinkBinaries>[2],
  asLink: boolean,
): Promise<CallToolResult> {
  const content: ContentBlock[] = [];
  for (const block of result.content) {
    const binary = largeBinary(block);
    const uri = binary && (await save(binary.data, binary.mimeType));
    if (!binary || !uri) {
      content.push(block);
      continue;
    }
    const description = `${binary.mimeType} content of ${tool.name} (${Math.floor((binary.data.length * 3) / 4)} bytes), readable with resources/read by this caller for ${RESULT_LINK_TTL_MS / 60_000} minutes.`;
    content.push(
      asLink
        ? { type: "resource_link", uri, name: `${tool.name} content`, mimeType: binary.mimeType, description }
        : { type: "text", text: `${description} URI: ${uri}` },
    );
  }
  return { ...result, content };
}
