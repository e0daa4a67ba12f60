/**
 * A JSON body shrunk to a size budget by its structure, never by cutting its text: each step below
 * runs only while the compact JSON is still over the budget, and every step leaves valid JSON.
 *
 * 1. null and empty values (`null`, `""`, `[]`, `{}`) are dropped;
 * 2. objects nested in an item are collapsed to their identifying fields (result-identity.ts);
 * 3. long strings are shortened, with a marker saying how long they were;
 * 4. each item keeps its identifying fields, so every item is still named, and of its other fields
 *    those that fit, the same ones for every item: first the fields the caller asked to keep (the
 *    columns of a view that shows the result), then the others in their order;
 * 5. only then are items dropped, from the end.
 *
 * The items are the body's records: the elements of a list body, or of the longest array of an
 * object body (a page's `data`, `issues`, `items`…); an object body without one is one record.
 */
import { getOwn, isRecord, setOwn } from "../protocol/own.js";
import type { JsonSchema } from "../api/types.js";
import { childSchema, identifyingKeys } from "./result-identity.js";

type Obj = Record<string, unknown>;

/** Characters a shortened string keeps. */
const SHORT_STRING_CHARS = 200;
/** Characters an identifying string keeps in the last resort. */
const TINY_STRING_CHARS = 40;

/** What shrinking did: the value, its compact JSON, and what was left out (for the result's note). */
export interface ShrinkOutcome {
  value: unknown;
  text: string;
  /** The steps that ran, in words. */
  steps: string[];
  /** Names of item fields left out of every item (first ones), for `_fields`. */
  fieldsLeftOut: string[];
  /** Items shown (kept) of how many, when items were dropped. */
  items?: { shown: number; total: number };
}

/** Where the records of a body are: the body itself (a list), a property of it, or the body as one record. */
type Records =
  | { kind: "list"; items: unknown[] }
  | { kind: "property"; key: string; items: unknown[] }
  | { kind: "one" };

function findRecords(body: unknown): Records {
  if (Array.isArray(body)) return { kind: "list", items: body };
  if (!isRecord(body)) return { kind: "one" };
  let best: { key: string; items: unknown[] } | undefined;
  for (const key of Object.keys(body)) {
    const value = getOwn(body, key);
    if (Array.isArray(value) && value.length > 0 && (!best || value.length > best.items.length))
      best = { key, items: value };
  }
  return best ? { kind: "property", ...best } : { kind: "one" };
}

/** The body with its records replaced (the rest of an envelope, `has_more`, `total`…, kept). */
function withRecords(body: unknown, records: Records, items: unknown[]): unknown {
  if (records.kind === "list") return items;
  if (records.kind === "one") return items[0];
  const out: Obj = {};
  for (const key of Object.keys(body as Obj)) setOwn(out, key, key === records.key ? items : getOwn(body as Obj, key));
  return out;
}

function itemsOf(body: unknown, records: Records): unknown[] {
  if (records.kind === "one") return [body];
  const items = records.kind === "list" ? body : isRecord(body) ? getOwn(body, records.key) : undefined;
  return Array.isArray(items) ? items : [];
}

/** The schema of one record: the items of a list, of the records' property, or the body's own. */
function recordSchema(schema: JsonSchema | undefined, records: Records): JsonSchema | undefined {
  if (records.kind === "one") return schema;
  if (records.kind === "list") return childSchema(schema);
  return childSchema(childSchema(schema, records.key));
}

/** `value` without null and empty values, at every depth. */
export function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmpty).filter((item) => !isEmpty(item));
  if (!isRecord(value)) return value;
  const out: Obj = {};
  for (const key of Object.keys(value)) {
    const child = dropEmpty(getOwn(value, key));
    if (!isEmpty(child)) setOwn(out, key, child);
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

/** Only the identifying fields of `value` (none: the object is left out). */
function identifiersOf(value: Obj, schema: JsonSchema | undefined): Obj | undefined {
  const keys = identifyingKeys(value, schema);
  if (keys.length === 0) return undefined;
  const out: Obj = {};
  for (const key of keys) setOwn(out, key, getOwn(value, key));
  return out;
}

/** A record whose nested objects (and arrays of objects) are collapsed to their identifying fields. */
function collapseNested(record: unknown, schema: JsonSchema | undefined): unknown {
  if (!isRecord(record)) return record;
  const out: Obj = {};
  for (const key of Object.keys(record)) {
    const value = getOwn(record, key);
    const sub = childSchema(schema, key);
    let kept: unknown = value;
    if (isRecord(value)) kept = identifiersOf(value, sub);
    else if (Array.isArray(value) && value.some(isRecord)) {
      const itemSchema = childSchema(sub);
      const items = value.map((item) => (isRecord(item) ? identifiersOf(item, itemSchema) : item));
      kept = items.filter((item) => item !== undefined);
      if ((kept as unknown[]).length === 0) kept = undefined;
    }
    if (kept !== undefined) setOwn(out, key, kept);
  }
  return out;
}

/** `value` with every string longer than `max` characters shortened, saying how long it was. */
export function shortenStrings(value: unknown, max: number): unknown {
  if (typeof value === "string")
    return value.length > max ? `${value.slice(0, max)}… (${value.length} characters)` : value;
  if (Array.isArray(value)) return value.map((item) => shortenStrings(item, max));
  if (!isRecord(value)) return value;
  const out: Obj = {};
  for (const key of Object.keys(value)) setOwn(out, key, shortenStrings(getOwn(value, key), max));
  return out;
}

/** A record reduced to its identifying fields; one with none keeps its first scalar, so it is still told apart. */
function identifiersOnly(record: unknown, schema: JsonSchema | undefined): unknown {
  if (!isRecord(record)) return record;
  const identified = identifiersOf(record, schema);
  if (identified) return identified;
  const first = Object.keys(record).find((key) => {
    const value = getOwn(record, key);
    return value !== null && typeof value !== "object";
  });
  const out: Obj = {};
  if (first !== undefined) setOwn(out, first, getOwn(record, first));
  return out;
}

/** `"name":value,` of one property, in characters. */
function propertyChars(name: string, value: unknown): number {
  return JSON.stringify(name).length + JSON.stringify(value).length + 2;
}

/**
 * The items with their identifying fields and, of their other top-level fields, those that fit in
 * `maxChars` (each for every item at once): those named in `keep` first, then the others in the
 * order they first appear.
 */
function fieldsThatFit(body: unknown, records: Records, max: number, schema?: JsonSchema, keep?: string[]): unknown[] {
  const items = itemsOf(body, records);
  const base = items.map((item) => identifiersOnly(item, schema));
  let used = JSON.stringify(withRecords(body, records, base)).length;
  // The fields to keep first are first in the map, so the loop below offers them room first.
  const costs = new Map<string, number>((keep ?? []).map((key) => [key, 0]));
  items.forEach((item, i) => {
    if (!isRecord(item)) return;
    const kept = base[i] as Obj;
    for (const key of Object.keys(item))
      if (!Object.prototype.hasOwnProperty.call(kept, key))
        costs.set(key, (costs.get(key) ?? 0) + propertyChars(key, getOwn(item, key)));
  });
  const chosen = new Set<string>();
  for (const [key, cost] of costs)
    if (used + cost <= max) {
      chosen.add(key);
      used += cost;
    }
  return items.map((item, i) => {
    if (!isRecord(item)) return item;
    const kept = base[i] as Obj;
    const out: Obj = {};
    for (const key of Object.keys(item))
      if (chosen.has(key) || Object.prototype.hasOwnProperty.call(kept, key)) setOwn(out, key, getOwn(item, key));
    return out;
  });
}

/** How many of `items` fit in `maxChars` together with the rest of the body (each item serialised once). */
function itemsThatFit(body: unknown, records: Records, items: unknown[], maxChars: number): number {
  let used = JSON.stringify(withRecords(body, records, [])).length;
  if (records.kind === "one") return used <= maxChars ? 1 : 0;
  for (let i = 0; i < items.length; i++) {
    used += JSON.stringify(items[i]).length + (i > 0 ? 1 : 0);
    if (used > maxChars) return i;
  }
  return items.length;
}

/** Top-level field names of the original items that no shrunk item has (at most `limit`). */
function fieldsLeftOut(before: unknown[], after: unknown[], limit = 30): string[] {
  const kept = new Set(after.flatMap((item) => (isRecord(item) ? Object.keys(item) : [])));
  const left = new Set<string>();
  for (const item of before) {
    if (!isRecord(item)) continue;
    for (const key of Object.keys(item)) if (!kept.has(key) && item[key] !== null && left.size < limit) left.add(key);
  }
  return [...left];
}

/**
 * `body` shrunk to at most `maxChars` characters of compact JSON by the steps of the module comment;
 * `keep` names item fields kept before the others in step 4.
 */
export function shrinkToBudget(body: unknown, maxChars: number, schema?: JsonSchema, keep?: string[]): ShrinkOutcome {
  const records = findRecords(body);
  const originalItems = itemsOf(body, records);
  const itemSchema = recordSchema(schema, records);
  const steps: string[] = [];
  let value = body;
  let text = JSON.stringify(value);
  const finish = (items?: { shown: number; total: number }): ShrinkOutcome => ({
    value,
    text,
    steps,
    fieldsLeftOut: fieldsLeftOut(originalItems, itemsOf(value, findRecords(value))),
    ...(items ? { items } : {}),
  });
  const stepsToTry: Array<[string, (item: unknown) => unknown, boolean]> = [
    ["null and empty values left out", dropEmpty, true],
    ["nested objects reduced to their identifying fields", (item) => collapseNested(item, itemSchema), false],
    [
      `strings longer than ${SHORT_STRING_CHARS} characters shortened`,
      (v) => shortenStrings(v, SHORT_STRING_CHARS),
      true,
    ],
  ];
  for (const [step, apply, wholeBody] of stepsToTry) {
    if (text.length <= maxChars) return finish();
    value = wholeBody ? apply(value) : withRecords(value, records, itemsOf(value, records).map(apply));
    text = JSON.stringify(value);
    steps.push(step);
  }
  if (text.length > maxChars) {
    value = withRecords(value, records, fieldsThatFit(value, records, maxChars, itemSchema, keep));
    text = JSON.stringify(value);
    steps.push("each item reduced to its identifying fields and the other fields that fit");
  }
  if (text.length <= maxChars) return finish();
  return dropItems(value, records, maxChars, steps, finish);
}

/** Step 5, and the last resort when not even one item fits: identifying strings cut short, then an empty body. */
function dropItems(
  shrunk: unknown,
  records: Records,
  maxChars: number,
  steps: string[],
  finish: (items?: { shown: number; total: number }) => ShrinkOutcome,
): ShrinkOutcome {
  let body = shrunk;
  let items = itemsOf(body, records);
  let fit = itemsThatFit(body, records, items, maxChars);
  if (fit === 0) {
    body = shortenStrings(body, TINY_STRING_CHARS);
    items = itemsOf(body, records);
    fit = itemsThatFit(body, records, items, maxChars);
    steps.push(`strings shortened to ${TINY_STRING_CHARS} characters`);
  }
  const kept =
    records.kind === "one" ? (fit > 0 ? body : emptyLike(body)) : withRecords(body, records, items.slice(0, fit));
  const outcome = finish();
  outcome.value = kept;
  outcome.text = JSON.stringify(kept);
  if (records.kind !== "one" && fit < items.length) {
    steps.push(`items after the first ${fit} left out`);
    outcome.items = { shown: fit, total: items.length };
  }
  if (outcome.text.length > maxChars) {
    // Not even the envelope fits (a budget of a few characters): an empty value of the same kind.
    outcome.value = emptyLike(kept);
    outcome.text = JSON.stringify(outcome.value);
    steps.push("everything left out");
  }
  return outcome;
}

function emptyLike(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (isRecord(value)) return {};
  return typeof value === "string" ? "" : null;
}
