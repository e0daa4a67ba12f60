// The example's own code (copied into generated/petstore/src/custom/ by npm run generate:examples,
// as if a user had written it after the first generation): a hook keyed by tool name with typed
// arguments and result, and a composite tool that calls two operations through the typed `api`.
import { ApiError, defineExtension, defineTool } from "../api.js";

/** Most pets one listPets call returns here, whatever the caller asks for. */
const MAX_PAGE = 50;

/** Read-modify-write in one tool: reads the pet, then replaces it with the new tag (getPet, then updatePet). */
const retagPet = defineTool({
  name: "retag_pet",
  title: "Retag a pet",
  description: "Give a pet a new tag, keeping its name and status (reads the pet, then replaces it).",
  inputSchema: {
    type: "object",
    properties: {
      petId: { type: "integer", description: "The pet's id." },
      tag: { type: ["string", "null"], description: "The new tag; null removes it." },
    },
    required: ["petId", "tag"],
    additionalProperties: false,
  },
  annotations: { destructiveHint: true, idempotentHint: true },
  async handler({ petId, tag }, { api }) {
    try {
      const pet = await api.getPet({ petId });
      const updated = await api.updatePet({ petId, name: pet.name, tag, ...(pet.status ? { status: pet.status } : {}) });
      return {
        content: [{ type: "text", text: `Pet ${updated.id} (${updated.name}) is now tagged ${updated.tag ?? "(none)"}.` }],
        structuredContent: { id: updated.id, previousTag: pet.tag ?? null, tag: updated.tag ?? null },
      };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { content: [{ type: "text", text: `No pet ${petId}.` }], isError: true };
      throw error;
    }
  },
});

export default defineExtension({
  tools: [retagPet],
  hooks: {
    listPets: {
      // args: ListPetsInput
      before(args) {
        return { ...args, limit: Math.min(args.limit ?? MAX_PAGE, MAX_PAGE) };
      },
      // result.structuredContent: ListPetsOutput
      after(result) {
        const content = result.structuredContent;
        if (content && "result" in content) result.content.push({ type: "text", text: `${content.result.length} pet(s) listed.` });
        return result;
      },
    },
  },
});
