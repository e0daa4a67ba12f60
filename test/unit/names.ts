import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  abbreviateName,
  camelCase,
  NameAllocator,
  nameFromRoute,
  pascalCase,
  sanitizeToolName,
  truncateName,
} from "../../generator/pipeline/plan/names.js";

test("sanitizeToolName keeps [A-Za-z0-9_-] and collapses the rest (dots too: model APIs refuse them)", () => {
  assert.is(sanitizeToolName("pets/list all (v2)"), "pets_list_all_v2");
  assert.is(sanitizeToolName("repos.get-content"), "repos_get-content");
  assert.is(sanitizeToolName("compute.instances.list"), "compute_instances_list");
  assert.is(sanitizeToolName(".hidden."), "hidden");
  assert.is(sanitizeToolName("/héllo/"), "h_llo");
});

test("nameFromRoute builds method_path names", () => {
  assert.is(nameFromRoute("get", "/pets/{petId}/photos"), "get_pets_petId_photos");
  assert.is(nameFromRoute("post", "/"), "post");
});

test("names over the limit are abbreviated before they are cut; short names are never touched", () => {
  const github = "codespaces_list-devcontainers-in-repository-for-authenticated-user";
  assert.ok(github.length > 64);
  assert.is(truncateName(github, 64), "codespaces_list-devcontainers-in-repo-for-auth-user");
  const k8s = "listCoreV1NamespacedPersistentVolumeClaimForAllNamespacesWithConfiguration";
  assert.is(truncateName(k8s, 64), "listCoreV1NsPersistentVolumeClaimForAllNamespacesWithConfig");
  assert.is(abbreviateName("Organization_repository-Permissions"), "Org_repo-Perms");
  assert.is(truncateName("get-repository", 64), "get-repository", "within the limit: as written");
  // Still too long after abbreviating: cut, with a hash of the full name to keep it distinct.
  const long = `update-organization-${"x".repeat(60)}`;
  const cut = truncateName(long, 64);
  assert.is(cut.length, 64);
  assert.ok(cut.startsWith("update-org-xxx"), cut);
  assert.not.equal(cut, truncateName(`${long}y`, 64));
});

test("truncateName keeps 64 characters and stays distinct with a hash", () => {
  const a = truncateName("a".repeat(70) + "x", 64);
  const b = truncateName("a".repeat(70) + "y", 64);
  assert.is(a.length, 64);
  assert.is(b.length, 64);
  assert.is.not(a, b);
  assert.ok(/^[A-Za-z0-9_.-]{1,64}$/.test(a));
  assert.is(truncateName("short", 64), "short");
});

test("NameAllocator de-duplicates deterministically and case-insensitively", () => {
  const names = new NameAllocator(64, ["index"]);
  assert.is(names.claim("getPet"), "getPet");
  assert.is(names.claim("GetPet"), "GetPet_2");
  assert.is(names.claim("getPet"), "getPet_3");
  assert.is(names.claim("Index"), "Index_2");
  const long = new NameAllocator(64);
  const first = long.claim("x".repeat(80));
  const second = long.claim("x".repeat(80));
  assert.is.not(first, second);
  assert.ok(second.length <= 64, second);
});

test("pascalCase and camelCase make valid identifiers", () => {
  assert.is(pascalCase("list_pets.v2"), "ListPetsV2");
  assert.is(pascalCase("2fa-verify"), "T2faVerify");
  assert.is(camelCase("delete"), "delete_");
  assert.is(camelCase("getPet"), "getPet");
});

test.run();
