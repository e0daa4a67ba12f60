// Where the bytes and tokens of a `tools/list` go, per kind of field: npm run bench:list prints it.
// Each part is counted as the JSON it takes in the listing (`"key":value,`); tokens are o200k's
// (gpt-tokenizer) for that JSON alone, so the parts' tokens add up to about, not exactly, the total.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/** The fields argument's name (`_fields`, or `__fields` beside a parameter of that name). */
const FIELDS_ARGUMENT = /^_+fields$/;

/** The parts of some listed tools: `[part, { tools, bytes, tokens }]`, largest first. */
export function listParts(tools) {
  const parts = new Map();
  const add = (part, key, value) => {
    const json = `${JSON.stringify(key)}:${JSON.stringify(value)},`;
    const entry = parts.get(part) ?? { tools: 0, bytes: 0, tokens: 0 };
    entry.tools++;
    entry.bytes += Buffer.byteLength(json);
    entry.tokens += countTokens(json);
    parts.set(part, entry);
  };
  for (const tool of tools)
    for (const [key, value] of Object.entries(tool))
      if (key === "inputSchema") addInputParts(value, add);
      else add(key, key, value);
  return [...parts].sort((a, b) => b[1].bytes - a[1].bytes);
}

/** An input schema's parts: its properties' descriptions, enums and the rest, `$defs`, the fields argument. */
function addInputParts(schema, add) {
  const { properties = {}, $defs, ...rest } = schema;
  add("inputSchema: type, required", "inputSchema", { ...rest, properties: {} });
  if ($defs) add("inputSchema: $defs", "$defs", $defs);
  for (const [name, property] of Object.entries(properties)) {
    const { description, enum: values, items, ...other } = property;
    const fields = FIELDS_ARGUMENT.test(name);
    const prefix = fields ? "inputSchema, fields argument" : "inputSchema, other properties";
    if (description !== undefined) add(`${prefix}: descriptions`, "description", description);
    const listed = values ?? items?.enum;
    if (listed) add(`${prefix}: enums`, "enum", listed);
    const shape = items?.enum ? { ...items, enum: undefined } : items;
    add(`${prefix}: names, types, bounds`, name, shape === undefined ? other : { ...other, items: shape });
  }
}

/**
 * The parts as a Markdown table, with the framing (page envelopes, braces) as what is left of the
 * total: `total` is `{ tools, bytes, tokens }` of the whole listing as sent.
 */
export function partsTable(parts, total) {
  const totalBytes = total.bytes;
  const number = (n) => n.toLocaleString("en-US");
  const rows = ["| part | tools | bytes | % | o200k tokens |", "| --- | ---: | ---: | ---: | ---: |"];
  let bytes = 0;
  for (const [part, entry] of parts) {
    bytes += entry.bytes;
    const share = ((100 * entry.bytes) / totalBytes).toFixed(1);
    rows.push(`| ${part} | ${number(entry.tools)} | ${number(entry.bytes)} | ${share} | ${number(entry.tokens)} |`);
  }
  const rest = totalBytes - bytes;
  rows.push(`| framing: pages, braces, cursors | | ${number(rest)} | ${((100 * rest) / totalBytes).toFixed(1)} | |`);
  rows.push(`| total | ${number(total.tools)} | ${number(totalBytes)} | 100 | ${number(total.tokens)} |`);
  return rows.join("\n");
}
