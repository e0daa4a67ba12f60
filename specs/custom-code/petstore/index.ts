// The example's own code (copied into generated/petstore/src/custom/ by npm run generate:examples,
// as if a user had written it after the first generation): a hook keyed by tool name with typed
// arguments and result, and tools that call operations through the typed `api` with the API's
// own types (`Pet`, from src/schemas.ts).
import { defineExtension, defineTool, isErrorResponse } from "../api.js";
import type { Pet } from "../schemas.js";

/** Most pets one listPets call returns here, whatever the caller asks for. */
const MAX_PAGE = 50;

/** One line about a pet, for the model. */
function describe(pet: Pet): string {
  return `${pet.name} (#${pet.id}${pet.tag ? `, ${pet.tag}` : ""}${pet.status ? `, ${pet.status}` : ""})`;
}

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
      const pet: Pet = await api.getPet({ petId });
      const updated = await api.updatePet({ petId, name: pet.name, tag, ...(pet.status ? { status: pet.status } : {}) });
      return {
        content: [{ type: "text", text: `Pet ${describe(updated)} is now tagged ${updated.tag ?? "(none)"}.` }],
        structuredContent: { id: updated.id, previousTag: pet.tag ?? null, tag: updated.tag ?? null },
      };
    } catch (error) {
      // The spec's Error schema types the body of the upstream's error answer.
      if (isErrorResponse(error, "getPet") && error.status === 404)
        return { content: [{ type: "text", text: typeof error.body === "object" ? error.body.message : `No pet ${petId}.` }], isError: true };
      throw error;
    }
  },
});

/** The pets of one status, described: listPets resolves to the API's array of `Pet`. */
const describePets = defineTool({
  name: "describe_pets",
  title: "Describe pets",
  description: "One line per pet of a status: name, id, tag and status.",
  inputSchema: {
    type: "object",
    properties: { status: { enum: ["available", "pending", "adopted"], description: "Only pets with this status." } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  async handler({ status }, { api }) {
    const pets: Pet[] = await api.listPets({ limit: MAX_PAGE, ...(status ? { status } : {}) });
    return {
      content: [{ type: "text", text: pets.length > 0 ? pets.map(describe).join("\n") : "No pets." }],
      structuredContent: { count: pets.length, names: pets.map((pet) => pet.name) },
    };
  },
});

export default defineExtension({
  tools: [retagPet, describePets],
  hooks: {
    listPets: {
      // args: ListPetsInput
      before(args) {
        return { ...args, limit: Math.min(args.limit ?? MAX_PAGE, MAX_PAGE) };
      },
      // result.structuredContent: ToolContents["listPets"], the wire's { result: Pet[] } (or an unexpected response)
      after(result) {
        const content = result.structuredContent;
        if (content && "result" in content) result.content.push({ type: "text", text: `${content.result.length} pet(s) listed.` });
        return result;
      },
    },
  },
});
