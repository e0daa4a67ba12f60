/**
 * Every internal link of the documentation leads somewhere: in docs/ (the VitePress site, whose build
 * also refuses dead page links, but not dead anchors) and in the repository's own Markdown at the root
 * (README.md, ARCHITECTURE.md, CONTRIBUTING.md, CHANGELOG.md), each relative link names a file that
 * exists and each `#anchor` a heading of its target. Links from the root files stay inside the
 * repository. Fast enough for the unit tier; CI also runs `npm run docs:build`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { markdownFiles } from "../support/markdown-files.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const docs = join(root, "docs");
const ROOT_FILES = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md"];

/** The text outside fenced code blocks and inline code spans (links there are examples, not links). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of the Markdown links and images of a text, in order. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** The slug VitePress gives a heading (its markdown-it anchor slugify). */
export function vitepressSlug(heading: string): string {
  return heading
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .replace(/[\u0000-\u001f]/g, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase();
}

/** The slug GitHub gives a heading (how the root files are read). */
export function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown file's headings, both ways of slugging them. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  const found = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const heading = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*_]/g, (c) => (c === "_" ? c : ""));
    found.add(vitepressSlug(heading));
    found.add(githubSlug(heading));
  }
  return found;
}

/** The file a relative link of `from` names: VitePress also resolves `page` to page.md and `dir/` to dir/index.md. */
function resolveTarget(from: string, path: string): string | undefined {
  const base = resolve(dirname(from), decodeURIComponent(path));
  const candidates = path.endsWith("/") ? [join(base, "index.md")] : [base, `${base}.md`, join(base, "index.md")];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Whether `path` is `dir` or lies under it. */
function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * The broken links of a Markdown file (its text, or `text` as if it were its text), each as
 * "file: target (why)". A page (`.md`) must lie under `pageRoot`; anything else under the repository.
 */
export function brokenLinks(file: string, pageRoot: string, text = readFileSync(file, "utf8")): string[] {
  const broken: string[] = [];
  const name = relative(root, file).split(sep).join("/");
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path, anchor] = target.split("#", 2) as [string, string | undefined];
    if (path !== "" && !within(root, resolve(dirname(file), path))) {
      broken.push(`${name}: ${target} (outside the repository)`);
      continue;
    }
    const resolved = path === "" ? file : resolveTarget(file, path);
    if (!resolved) {
      broken.push(`${name}: ${target} (no such file)`);
      continue;
    }
    const inside = resolved.endsWith(".md") ? pageRoot : root;
    if (!within(inside, resolved)) {
      broken.push(`${name}: ${target} (outside ${relative(root, inside) || "the repository"})`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && !anchors(resolved).has(anchor))
      broken.push(`${name}: ${target} (no heading #${anchor})`);
  }
  return broken;
}

test("links are read from prose, not code; slugs as VitePress and GitHub make them", () => {
  assert.equal(linkTargets("[a](./a.md) `[b](b.md)` ![c](../c.png)\n```\n[d](d.md)\n```\n[e](https://x.y/#z)"), [
    "./a.md",
    "../c.png",
    "https://x.y/#z",
  ]);
  assert.is(vitepressSlug("Several instances: `--state` & Redis"), "several-instances-state-redis");
  assert.is(githubSlug("Several instances: --state & Redis"), "several-instances---state--redis");
});

test("a dead link, a missing anchor and a link out of the repository are reported", () => {
  const readme = join(root, "README.md");
  assert.ok(anchors(join(docs, "guide", "getting-started.md")).has("run-it"), "getting-started.md has 'Run it'");
  const planted = "[x](docs/nope.md) [y](docs/guide/getting-started.md#nope) [z](../shared/DESIGN.md) [w](#nope)";
  assert.equal(brokenLinks(readme, root, planted), [
    "README.md: docs/nope.md (no such file)",
    "README.md: docs/guide/getting-started.md#nope (no heading #nope)",
    "README.md: ../shared/DESIGN.md (outside the repository)",
    "README.md: #nope (no heading #nope)",
  ]);
  assert.equal(brokenLinks(readme, root, "[ok](docs/guide/getting-started.md#run-it) [p](package.json)"), []);
  assert.equal(brokenLinks(join(docs, "index.md"), docs, "[r](../README.md)"), [
    "docs/index.md: ../README.md (outside docs)",
  ]);
});

test("every internal link and anchor of docs/ leads to a page and a heading of the site", () => {
  const files = markdownFiles(docs);
  assert.ok(files.length >= 15, `only ${files.length} pages`);
  assert.equal(
    files.flatMap((file) => brokenLinks(file, docs)),
    [],
  );
});

test("every link of README.md, ARCHITECTURE.md, CONTRIBUTING.md and CHANGELOG.md stays in the repository and leads somewhere", () => {
  const present = ROOT_FILES.filter((name) => existsSync(join(root, name)));
  assert.equal(present, ROOT_FILES);
  assert.equal(
    present.flatMap((name) => brokenLinks(join(root, name), root)),
    [],
  );
  assert.match(readFileSync(join(root, "README.md"), "utf8"), /\]\(ARCHITECTURE\.md\)/);
  assert.match(readFileSync(join(root, "README.md"), "utf8"), /\]\(docs\//);
});

test.run();
