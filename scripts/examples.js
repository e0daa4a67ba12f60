// The example servers checked in under generated/: which spec each one comes from.
export const EXAMPLES = [
  { name: "petstore", spec: "specs/petstore.yaml" },
  { name: "swagger2-petstore", spec: "specs/fixtures/swagger2-petstore.yaml" },
  { name: "oas31-library", spec: "specs/fixtures/oas31-library.json" },
];
