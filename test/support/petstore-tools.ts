/**
 * The petstore example's tools (specs/petstore.yaml with specs/custom-code/petstore) as every client
 * lists them on surface `all`: its six operations in document order, then the example's custom tools.
 */
export const PETSTORE_TOOLS: readonly string[] = [
  "listPets",
  "createPet",
  "getPet",
  "updatePet",
  "deletePet",
  "getInventory",
  "retag_pet",
  "describe_pets",
];
