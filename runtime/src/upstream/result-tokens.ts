/**
 * The token estimate of a result's text, without a tokenizer in the server: characters / 3. A
 * tokenizer's count depends on the model; with OpenAI's o200k, API JSON runs at about 3.7
 * characters a token (GitHub's list of pull requests, 30 items: 641,112 characters, 174,782
 * tokens), prose at about 4, so dividing by 3 errs on the side of a smaller result.
 */

/** Characters counted as one token. */
export const CHARS_PER_TOKEN = 3;

/** The default result budget, in tokens: below the 10,000 at which clients start warning. */
export const DEFAULT_RESULT_BUDGET_TOKENS = 10_000;

/** The smallest budget a server accepts: room for a page's identifiers and the note. */
export const MIN_RESULT_BUDGET_TOKENS = 500;

/** The largest budget a server (or a tool's `x-mcp-result-budget`) takes. */
export const MAX_RESULT_BUDGET_TOKENS = 10_000_000;

/** The estimated tokens of `text`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The characters a budget of `tokens` allows. */
export function charsOfTokens(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
