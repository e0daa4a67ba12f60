/**
 * How a view tells a record's identifying fields from the rest, by the field's name alone (the
 * server when it picks a table's columns and a card's title, the view when it names a folded
 * object). Imports nothing: the views' browser bundle uses it too.
 */

/** Names that identify a record, most telling first (a card's title is the first one present). */
export const IDENTIFYING_FIELDS: readonly string[] = [
  "title",
  "name",
  "full_name",
  "fullName",
  "display_name",
  "displayName",
  "login",
  "username",
  "label",
  "key",
  "slug",
  "number",
  "id",
  "email",
];

/** Where `field` ranks among identifying names (lower first); undefined for any other name. */
export function identifyingRank(field: string): number | undefined {
  const rank = IDENTIFYING_FIELDS.indexOf(field);
  return rank < 0 ? undefined : rank;
}

/** Whether a field's name says it holds a link (`url`, `html_url`, `avatarUrl`, `href`). */
export function isLinkName(field: string): boolean {
  return /(^|_)(url|uri|href)$|[a-z](Url|Uri|Href)$/.test(field);
}

/** Whether a field's name says it refers to another record (`user_id`, `ownerId`): not this one's identity. */
export function isReferenceName(field: string): boolean {
  return /._id$|[a-z]Id$/.test(field);
}

/** The value that names `record`: its first identifying field with a scalar value, as text. */
export function identifyingValue(record: Readonly<Record<string, unknown>>): string | undefined {
  for (const field of IDENTIFYING_FIELDS) {
    const value = record[field];
    if (typeof value === "string" || typeof value === "number") return String(value);
  }
  return undefined;
}
