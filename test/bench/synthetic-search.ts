/**
 * A synthetic API of any size for the search index (issue 12): operations named `<a>.<b>.op<i>` over
 * 20 nouns and 4 verbs, so queries like "delete a calendar event" have many near matches. Shared by
 * the unit test (what is found) and `npm run bench:search` (what it costs).
 */
import type { SearchDocument } from "../../runtime/src/features/search/search-build.js";

const NOUNS = [
  "user",
  "group",
  "message",
  "event",
  "calendar",
  "drive",
  "item",
  "team",
  "channel",
  "site",
  "list",
  "contact",
  "device",
  "policy",
  "report",
  "task",
  "plan",
  "note",
  "mail",
  "folder",
];
const VERBS = [
  ["get", "Get"],
  ["post", "Create"],
  ["patch", "Update"],
  ["delete", "Delete"],
] as const;

/** Queries whose every content word occurs in many synthetic operations. */
export const SYNTHETIC_QUERIES = [
  "send a mail to the team",
  "delete a calendar event",
  "list the members of a group",
  "update device policy",
  "create a task in a plan",
];

/** `count` synthetic operations, deterministic. */
export function syntheticSearchDocuments(count: number): SearchDocument[] {
  const docs: SearchDocument[] = [];
  for (let i = 0; docs.length < count; i++) {
    const a = NOUNS[i % NOUNS.length]!;
    const b = NOUNS[Math.floor(i / NOUNS.length) % NOUNS.length]!;
    const [method, verb] = VERBS[i % VERBS.length]!;
    docs.push({
      name: `${a}.${b}.op${i}`,
      method,
      path: `/${a}s/{id}/${b}s/x${i}`,
      summary: `${verb} ${b} of ${a} ${i}`,
      description: `${verb}s the ${b} of a ${a}.`,
      tags: [a],
      parameters: ["id"],
    });
  }
  return docs;
}
