import { defineConfig } from "vitepress";

// The documentation site (npm run docs:build). VitePress fails the build on a dead internal link;
// test/unit/docs-links.ts also checks every link's #anchor, which VitePress does not.
export default defineConfig({
  title: "mcp-gen",
  description: "A typed MCP server project from any OpenAPI document",
  cleanUrls: true,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "Reference", link: "/reference/cli" },
      { text: "Benchmarks", link: "/benchmarks/" },
    ],
    sidebar: [
      {
        text: "Guide",
        items: [
          { text: "Getting started", link: "/guide/getting-started" },
          { text: "The generated project", link: "/guide/generated-project" },
          { text: "Your code and types", link: "/guide/custom-code" },
          { text: "Regenerating and publishing", link: "/guide/regenerating" },
          { text: "Shaping the tool surface", link: "/guide/tool-surface" },
          { text: "Surfaces and large APIs", link: "/guide/surfaces" },
          { text: "MCP clients", link: "/guide/clients" },
          { text: "Upstream credentials", link: "/guide/credentials" },
          { text: "Pagination", link: "/guide/pagination" },
          { text: "Results sized for a model", link: "/guide/results" },
          { text: "File uploads by reference", link: "/guide/uploads" },
          { text: "Search surface", link: "/guide/search" },
          { text: "Views: tables, cards, forms", link: "/guide/views" },
          { text: "Per-user sign-in", link: "/guide/user-sign-in" },
          { text: "The protocol", link: "/guide/protocol" },
          { text: "Several instances", link: "/guide/several-instances" },
          { text: "Operating a server", link: "/guide/operating" },
          { text: "A fleet of servers", link: "/guide/fleet" },
          { text: "Compliance: mcp-gen check", link: "/guide/check" },
          { text: "Security model and limits", link: "/guide/security" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "mcp-gen command", link: "/reference/cli" },
          { text: "Generated server options", link: "/reference/server" },
          { text: "Diagnostics (MG codes)", link: "/reference/diagnostics" },
        ],
      },
      {
        text: "Benchmarks",
        items: [
          { text: "Method and current figures", link: "/benchmarks/" },
          { text: "Search", link: "/benchmarks/search" },
          { text: "HTTP under load", link: "/benchmarks/http" },
          { text: "Results", link: "/benchmarks/results" },
          { text: "History", link: "/benchmarks/history" },
        ],
      },
      {
        text: "Contributing",
        items: [
          { text: "Where to start", link: "/contributing/" },
          { text: "Real-world corpus and call fidelity", link: "/contributing/corpus" },
          { text: "Surfaces: tests and measurements", link: "/contributing/surfaces" },
        ],
      },
    ],
    search: { provider: "local" },
  },
});
