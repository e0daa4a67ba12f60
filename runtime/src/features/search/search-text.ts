/**
 * Text analysis for operation search: the one tokenizer, stemmer and vocabulary used both when the
 * generator builds the index (data/search-index.json) and when the server analyses a query. Both
 * sides must agree term for term, so the generator imports this module rather than a copy of it.
 * Pure functions, no dependencies.
 */

/** Words that carry no meaning for finding an operation ("how do I list my repos"). */
const STOPWORDS = new Set(
  (
    "a an the of to in on at by for with from into about as and or but not no " +
    "i my mine we us our you your it its this that these those there their them they " +
    "is are was were be been being am do does did done can could should would will shall may might must " +
    "how what which who whom whose when where why please want need wanna let lets just also " +
    "some any one thing things something via using use over per than then so if else " +
    "completely anymore really actually quickly directly currently right now got have has had don t s " +
    "all every called named pls plz rn asap much"
  ).split(" "),
);

/**
 * Capitalised words with a capital inside that are names, not two words: "GitHub", "PayPal",
 * "YouTube" (two short humps), "OAuth", "ETag" (one capital before a capitalised word). In prose
 * (summaries, descriptions, requests) they stay one word, so "GitHub" does not read as git data;
 * identifiers (tool names, paths, parameters) are split at every hump.
 */
const BRAND = /\b(?:[A-Z][a-z]{1,2}[A-Z][a-z]{1,3}|[A-Z][A-Z][a-z]{2,})\b/g;

/**
 * Splits text into lower-case words: camelCase and PascalCase humps, snake_case, kebab-case,
 * path segments and punctuation all separate words ("listForOrg" → list, for, org).
 */
export function words(text: string, prose = false): string[] {
  let spaced = prose && UPPER.test(text) ? text.replace(BRAND, (word) => word.toLowerCase()) : text;
  if (spaced.includes("<")) spaced = spaced.replace(/<[^>]*>/g, " ");
  // "owner/name" slugs ("facebook/react") name one thing by its identifiers: not words to match.
  if (spaced.includes("/"))
    spaced = spaced.replace(/(^|\s)[\w.-]+\/[\w.-]+(?=[\s,.?!]|$)/g, (slug, space: string) =>
      /\.[a-z]{1,5}$/i.test(slug) ? slug : space,
    );
  // Acronym plurals stay one word: "PRs", "APIs" (not "P Rs").
  if (UPPER.test(spaced))
    spaced = spaced.replace(/\b([A-Z]{2,})s\b/g, (_, acronym: string) => `${acronym.toLowerCase()}s`);
  if (PHRASE_START.test(spaced)) spaced = phrases(spaced);
  if (UPPER.test(spaced))
    spaced = spaced.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

const UPPER = /[A-Z]/;

/**
 * The first word of every phrase that `phrases` rewrites: text without one of them has none of the
 * phrases, so indexing skips the rewriting (most identifiers, many summaries).
 */
const PHRASE_START =
  /\b(?:add|save|have|has|ask|give|pull|open|closed|active|merged|set|turn|switch|how|bring|stop|quit|cease|what|get|kick|drop|leave|post|put|file|slap|stick|who|look|pay|log|sign)/i;

/** Everyday phrasings rewritten to the words the API uses (each phrase starts with a PHRASE_START word). */
function phrases(text: string): string {
  return (
    text
      .replace(/\b(pull) requests?\b/gi, "$1")
      // "open PRs", "closed issues": a state that filters things listed, not the verb "open".
      .replace(/\b(?:open|opened|closed|active|merged)\s+(?=\w+s\b)/gi, "")
      .replace(/\bset up\b/gi, "setup")
      .replace(/\b(?:turn|switch) on\b/gi, "enable")
      .replace(/\b(?:turn|switch) off\b/gi, "disable")
      .replace(/\bhow many\b/gi, "count")
      // "How much money do we have": the money held, a balance (not money moving: refunds, payouts).
      .replace(/\bhow much (?:money|cash|funds?)\b/gi, "balance")
      .replace(/\bbring back\b/gi, "restore")
      // "Stop following", "stop watching": the un- verb (unfollow, unwatch; see OperationSearch for an API without it).
      .replace(/\b(?:stop|quit|cease)\s+([a-z]{3,})ing\b/gi, "un$1ing")
      .replace(/\bwhat(?:'s| is) new\b/gi, "latest")
      .replace(/\bget rid of\b/gi, "delete")
      // "Get @dana and @lee to review #512", "ask the platform team to look at 57": a review request.
      .replace(
        /\b(?:get|ask)\s+((?:(?:and\s+)?@?[\w-]+,?\s+){1,5})to (?:review|look at|check)\b/gi,
        "request review $1",
      )
      // "Put cus_PQ12 on the $49/mo Team price": a customer put on a plan is subscribed to it.
      .replace(/\bput\s+(\S+)\s+on\s+(?:the|a|an|our)\s+([^.,;]{0,40}?)\b(plan|price|tier)\b/gi, "subscribe $1 to $2$3")
      // "Add a one-off charge to the customer's next invoice": a line added to an invoice is an invoice item.
      .replace(
        /\badd\s+(?:an?|the|some)\s+([^.,;]{0,40}?)\bto\s+(?:(?:the|a|an|their|his|her|its|our|my)\s+)?(?:[\w']+\s+){0,3}?invoice\b/gi,
        "add invoice item $1",
      )
      // "Save a card for later": a payment method set up for future payments, not a charge now.
      .replace(/\bsave\s+(?:a|the|their|his|her|my|our)\s+(?:card|payment method)\b/gi, "setup payment method")
      // "Who can push to the repo", "does dave have push rights": people with access are collaborators.
      .replace(/\bwho can (?:push|write|commit|merge)\b/gi, "list collaborators")
      .replace(
        /\b(?:have|has)\s+(?:push|write|admin|maintain)\s+(?:rights|access|permissions?)\b/gi,
        "collaborator permission",
      )
      // "Give @marco push access to infra": a person given access to a repository is a collaborator.
      .replace(
        /\bgive\s+(@[\w-]+)\s+(?:(?:push|pull|write|read|admin|maintain|triage)\s+)?access\b/gi,
        "add collaborator $1",
      )
      // Everyday phrasings of API actions.
      .replace(/\bkick(?:ed|ing|s)? off\b/gi, "start")
      .replace(
        /\b(?:drop|leave|post|put)(?:s|ped|ping)?\s+(an?|the|my|our|this|that)((?:\s+[\w-]+)?)\s+(comment|note|reply|label|tag|message)\b/gi,
        "add $1$2 $3",
      )
      // "What's open in the repo", "what's failing": things in that state, listed.
      .replace(/\bwhat(?:'s|s| is| are) (?:open|closed|pending|failing|running)\b/gi, "list")
      .replace(/\bfile (an?|the) (bug|issue|ticket|report)\b/gi, "create $1 $2")
      .replace(/\b(?:slap|stick)(?:s|ped|ping)?\b/gi, "add")
      .replace(/\bwhat changed\b/gi, "compare")
      .replace(/\bwho(?:'s| is| are|se) (?:on|in)\b/gi, "members of")
      .replace(/\blook up\b/gi, "lookup")
      .replace(/\bpay out\b/gi, "payout")
      .replace(/\b(log|sign)(ged)? (in|on)\b/gi, "login")
  );
}

/**
 * A light English stemmer (plural, -ed, -ing, final -e), enough to fold "repositories",
 * "repository"; "starred", "stars", "star"; "merge", "merged", "merging" onto one stem.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (/(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  // Agent nouns onto their verb: "contributors" and "contributed" → "contribut". Long words only:
  // "author" must stay apart from "auth".
  else if (w.endsWith("or") && w.length > 7) w = w.slice(0, -2);
  return w;
}

/** "starr" → "star", "mapp" → "map": the consonant doubled before -ing/-ed. */
function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/**
 * Spellings of one thing folded onto one term at analysis, so they match at full weight:
 * "repositories", "repos" and "repo" are the same word to a user. A Map, not an object: a word
 * such as "constructor" must not find `Object.prototype`'s members.
 */
const CANONICAL: ReadonlyMap<string, string> = new Map(
  Object.entries({
    repository: "repo",
    organization: "org",
    organisation: "org",
    pr: "pull",
    prs: "pull",
    configuration: "config",
    information: "info",
    authorization: "auth",
    authentication: "auth",
    permission: "perm",
    statistic: "stat",
    login: "authenticat",
  }),
);

/** Words of `text` without stopwords, stemmed: the terms the index stores. */
export function analyze(text: string, prose = false): string[] {
  const terms: string[] = [];
  for (const word of words(text, prose)) {
    if (STOPWORDS.has(word)) continue;
    const stemmed = CANONICAL.get(word) ?? stem(word);
    terms.push(CANONICAL.get(stemmed) ?? stemmed);
  }
  return terms;
}

/**
 * Words that requests use as filler ("get the details of the repo", "info about a user") but
 * operations use as names (`get-export-details`, `copilot-seat-details`): left out of queries only.
 */
const QUERY_FILLER: ReadonlySet<string> = new Set(["detail", "info"]);

/** Hyphenated words that are words, not names (see analyzeQuery). */
const ENGLISH_COMPOUNDS: ReadonlySet<string> = new Set(
  "e-mail one-off one-time follow-up check-in check-out sign-in sign-up sign-on log-in opt-in opt-out set-up pull-request merge-request read-only two-factor multi-factor third-party built-in add-on re-run re-open".split(
    " ",
  ),
);

/** An event type ("payment_intent.payment_failed", "invoice.paid", "customer.subscription.updated"). */
const EVENT_TYPE =
  /\b[a-z]+(?:_[a-z]+)*(?:\.[a-z]+(?:_[a-z]+)*)*\.[a-z_]*(?:ed|paid|due|upcoming|required|expiring|closing|will_renew)\b/g;

/** A file name whose extension says it is an archive, a package, an image or a document, not source text. */
const BINARY_FILE =
  /\.(?:gz|tgz|zip|tar|bz2|xz|7z|rar|dmg|exe|msi|deb|rpm|apk|ipa|jar|whl|pdf|png|jpe?g|gif|svg|webp|ico|mp4|mov|bin|iso)$/i;

/** Whether the request asks to make something (a verb of the create group). */
function makes(query: string): boolean {
  const { actionGroups } = tables();
  return analyze(query.replace(/\babout\b.*$/i, " ")).some((term) => actionGroups.get(term)?.includes(0) ?? false);
}

/** Hyphenated words made with an English prefix ("auto-generate", "re-run", "pre-release", "sub-issues", "un-archive"): words, not names. */
const PREFIXED = /^(?:auto|re|pre|post|co|un|non|sub|multi|anti|de|mis|over|under|inter|intra)-[a-z]+$/i;

/**
 * Query terms: the analysed words, plus `file` when the request names a file (`package.json`,
 * `src/index.js`), which users rarely call a "file".
 */
export function analyzeQuery(query: string): string[] {
  // Numbers and versions are values the request gives ("issue 7", "tag v3.2.0"), not words to match;
  // so are hyphenated names ("the old-feature branch", "a label called needs-triage"), except the
  // common English compounds.
  const values = query
    // "Give me", "show me", "tell me": "me" is the reader, not the caller's own things (see firstPerson).
    .replace(/\b(?:give|tell) me\b/gi, "show")
    .replace(/\b(show|get|send|find|bring|fetch|list) me\b/gi, "$1")
    .replace(/\bright now\b/gi, " ")
    // Developers cut a branch or a release; sending an amount of money is a transfer.
    .replace(/\bcut (an?|the) (branch|release|tag)\b/gi, "create $1 $2")
    .replace(
      /\b(?:send|wire)\s+(?:[$€£]\s?\d[\d,.]*|\d[\d,.]*\s?(?:usd|eur|gbp|dollars?|euros?|bucks)\b)/gi,
      "transfer",
    )
    // Text in quotes is a value the request gives: "a 'good first issue' label", "with the comment 'LGTM'".
    .replace(/(?<![\w'])'[^'\n]{1,60}'(?![\w'])|"[^"\n]{1,60}"|“[^”\n]{1,60}”|`[^`\n]{1,60}`/g, " ")
    // A clause after the request that says why ("nuke the branch, it's merged"): context, not the action.
    .replace(/[,;]\s*(?:it|they|this|that|he|she)(?:'s|'re| is| are| was| were| has| have| had)\b[^,;]*/gi, " ")
    // A code identifier with several humps ("parseLegacyToken") is a name, not three words.
    .replace(/\b[a-z]+(?:[A-Z][a-z0-9]+){2,}\b/g, " ")
    // Where code calls or defines something is a code search.
    .replace(
      /\bwhere (?:do|does|did|is|are|have) (?:we|they|you|it|i)\s+(?:call|use|define|import|reference|set)\b|\bwhere is \S+ (?:called|used|defined|imported|referenced)\b/gi,
      "search code",
    )
    // Things that mention a word are found by searching their text ("open bugs mentioning timeout").
    .replace(/\b(?:mentioning|containing|that (?:mention|contain)s?)\b/gi, "search")
    // Secrets pushed into a repository are what secret scanning alerts on.
    .replace(
      /\b(?:(?:did|has|have) \S+ (?:commit|leak|push|expose)|committed|leaked|leaking|pushed|exposed)\s+(?:\w+\s+){0,3}?(?:secrets?|passwords?|keys?|tokens?|credentials?)\b/gi,
      "secret scanning alerts",
    )
    // What a business charges for something is its price.
    .replace(
      /\b(?:what|how much) (?:are|do|did|does|is) (?:we|you|they|it) (?:charg(?:e|es|ing)|bill(?:ing)?) for\b/gi,
      "price of",
    )
    // A reply on an issue or a pull request is a new comment.
    .replace(
      /\b(?:reply|respond|answer)(?:ed|ing|s)?\s+(?:on|in|under|to(?=\s+(?:(?:the|this|that|her|his|their)\s+)?(?:issue|pr|pull|#\d|comment|thread|discussion)))\b/gi,
      "add comment on",
    )
    // "We need a … label": something to make (not a list, report or count of things).
    .replace(
      /\b(?:we|i) need (a|an|another)\b(?!\s+(?:list|report|summary|count|copy|breakdown|overview|rundown)\b)/gi,
      "create $1",
    )
    // "The last 10 commits", "top 5 customers": a number of things, listed.
    .replace(/\b(?:last|latest|recent|newest|first|top)\s+\d+\s+(?=[a-z]+s\b)/gi, "list ")
    // An event type ("payment_intent.payment_failed", "invoice.paid") names events, not the words in it.
    .replace(EVENT_TYPE, " event ")
    // A platform's fees on its connected accounts' payments are application fees.
    .replace(/\bplatform fees?\b/gi, "application fee")
    // A git-flow branch name ("release/2.x", "feature/login") is a value (namedThings: a branch).
    .replace(GIT_FLOW_NAMES, " ")
    // What a request makes something about is a value: "open an issue about the login page
    // crashing" (not "info about a user"). (Also cutting after "saying" was tried: no better.)
    .replace(/\babout\b.*$/i, (rest) => (makes(query) ? " " : rest))
    // NAME=value settings ("DEFAULT_REGION=eu-west-1") are values too (namedThings: a variable).
    .replace(new RegExp(SETTING.source, "g"), " ")
    // E-mail addresses, URLs and ids with digits ("cus_123", "pi_3Mtw") are values the request gives.
    .replace(/\S+@\S+\.[a-z]{2,}/gi, " ")
    .replace(/\bhttps?:\/\/\S+/gi, " ")
    .replace(/\b[a-z]+_[a-z0-9]*\d[a-z0-9]*\b/gi, " ")
    .replace(/(?<![\w.-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w.-])/gi, (name) =>
      ENGLISH_COMPOUNDS.has(name.toLowerCase()) || PREFIXED.test(name) ? name : " ",
    )
    .replace(/\bv?\d+(?:\.\d+)*\b/gi, " ");
  const terms = analyze(values, true).filter((term) => !QUERY_FILLER.has(term));
  // File names ("package.json"); not event types ("invoice.paid") nor versions ("release/2.x").
  const names =
    query
      .replace(EVENT_TYPE, " ")
      .replace(GIT_FLOW_NAMES, " ")
      .match(/[\w-]*[a-z_-][\w-]*\.[a-z][a-z0-9]{0,4}\b/gi) ?? [];
  // Domain names and e-mail addresses are not files. A text file named is a repository's content
  // ("bump the version in package.json"); an archive, image or document is uploaded as itself.
  const files = names.filter((name) => !/\.(com|org|net|io|dev|app|co|ai)$/i.test(name) && !query.includes(`@${name}`));
  if (files.length > 0) terms.push("file");
  if (files.some((name) => !BINARY_FILE.test(name))) terms.push(stem("content"));
  return terms;
}

/**
 * API vocabulary: words a user says for the same thing. A query term also matches the other words
 * of its groups, at a lower weight than the word itself. Groups are written as plain words and
 * stemmed once. A word marked `~` only leads to its group: "view the repo" also matches "get", but
 * "get" does not match "view", which in an API usually names a thing (GitHub's traffic views,
 * project views), as "check" (check runs) and "detail" (`details_url`) do. A word marked `^` is
 * only led to: "watch a repo" matches GitHub's repo "subscription", but a Stripe "subscription"
 * has nothing to do with watching.
 */
const SYNONYM_GROUPS: string[][] = [
  [
    "create",
    "add",
    "new",
    "make",
    "post",
    "~open",
    "~start",
    "register",
    "insert",
    "submit",
    "~generate",
    "~publish",
    "~setup",
    "~leave",
    "~write",
    "~put",
    "~apply",
    "~attach",
    "~save",
    "~enroll",
  ],
  [
    "delete",
    "remove",
    "destroy",
    "~drop",
    "erase",
    "purge",
    "discard",
    "unset",
    "~clear",
    "~kick",
    "~wipe",
    "~nuke",
    "~ditch",
    "~trash",
  ],
  ["list", "show", "browse", "enumerate", "~index", "~see", "~view", "~display"],
  ["search", "find", "lookup", "query", "filter"],
  [
    "get",
    "show",
    "fetch",
    "retrieve",
    "read",
    "~view",
    "~see",
    "~detail",
    "~info",
    "lookup",
    "~check",
    "~inspect",
    "~look",
    "~grab",
    "~display",
  ],
  [
    "update",
    "edit",
    "change",
    "modify",
    "patch",
    "set",
    "~rename",
    "alter",
    "replace",
    "configure",
    "~close",
    "~reopen",
    "~adjust",
    "~tweak",
    "~bump",
  ],
  ["compare", "diff", "difference"],
  ["latest", "newest", "recent", "last", "current"],
  ["upcoming", "next", "~future"],
  ["review", "reviewer", "approve", "approval"],
  ["request", "ask"],
  ["assign", "assignee"],
  ["invite", "invitation", "join"],
  ["star", "stargazer", "favorite", "favourite", "bookmark"],
  ["unstar", "unfavorite"],
  ["merge", "combine", "land"],
  ["repo", "codebase", "project"],
  ["pull", "merge-request"],
  ["issue", "ticket", "bug", "report"],
  ["comment", "reply", "note", "remark"],
  [
    "user",
    "member",
    "account",
    "person",
    "people",
    "profile",
    "collaborator",
    "~teammate",
    "~colleague",
    "~employee",
    "~staff",
  ],
  ["org", "company", "enterprise"],
  ["follow", "follower", "following", "subscribe"],
  ["watch", "watcher", "^subscription", "notify", "notification"],
  ["cancel", "abort", "stop", "void", "terminate", "~kill"],
  ["customer", "client", "buyer", "shopper"],
  ["payment", "charge", "pay", "paid", "transaction", "~purchase"],
  ["refund", "reimburse", "return", "reverse", "money-back"],
  ["invoice", "bill", "billing", "receipt"],
  ["subscription", "~recurring", "~plan", "~renew"],
  ["price", "pricing", "cost", "amount", "rate"],
  ["product", "~item", "~good", "sku", "~catalog"],
  ["payout", "withdraw", "transfer", "disburse"],
  ["balance", "fund", "money"],
  ["coupon", "discount", "promo", "promotion", "~voucher", "~redeemable"],
  ["key", "token", "secret", "credential"],
  ["hook", "webhook", "callback"],
  ["run", "execute", "trigger", "dispatch", "rerun"],
  ["workflow", "action", "pipeline", "ci", "job", "build"],
  ["release", "~version", "~tag"],
  ["file", "content", "document", "blob", "~pdf", "~attachment"],
  ["branch", "ref", "head"],
  ["label", "tag"],
  ["block", "ban"],
  ["unblock", "unban"],
  ["lock", "freeze"],
  ["unlock", "unfreeze"],
  ["archive", "archived"],
  ["email", "mail", "address"],
  ["authenticated", "i", "me", "myself", "self", "own", "logged", "login", "signed"],
  ["download", "export", "archive"],
  ["upload", "import"],
  ["count", "stats", "statistic", "number", "total", "summary"],
  ["gist", "snippet", "paste"],
  ["secret", "password", "credential"],
  ["delivery", "deliver", "attempt"],
  ["dispute", "chargeback"],
  ["card", "credit", "debit"],
  ["session", "checkout"],
  ["tax", "vat", "gst"],
  // General API English (2026-11-26): what users say for what APIs name otherwise.
  ["enable", "activate", "~allow"],
  ["disable", "deactivate"],
  ["usage", "~spend", "~spent", "~consumption", "~consume"],
  ["notification", "~inbox"],
  ["release", "~changelog"],
  ["transfer", "~move"],
  ["limit", "quota", "~throttle", "cap"],
  ["remaining", "~left"],
  ["reaction", "react", "~emoji", "~thumb", "~upvote", "~like"],
  ["retry", "rerun", "redeliver", "resend", "redo"],
  ["restore", "recover", "undelete"],
  ["reverse", "reversal", "~undo", "~revert"],
  ["decline", "reject", "deny", "refuse"],
  ["suspend", "pause", "~hold"],
  ["resume", "unpause", "unsuspend", "reactivate"],
  ["revoke", "invalidate", "expire"],
  ["event", "activity", "~history", "~timeline", "~feed", "~happened"],
  ["sub", "child", "~nested"],
  ["increment", "increase", "~bump", "~raise"],
  // A card hold is an authorization ("authorization" analyses to "auth").
  ["auth", "~hold"],
  ["revision", "version"],
  ["image", "picture", "photo", "avatar", "logo", "icon"],
  ["link", "url"],
  ["config", "setting", "preference", "option"],
  ["perm", "access", "role", "privilege", "right"],
  ["vulnerability", "advisory", "cve", "~security"],
  ["alert", "warning"],
  ["fail", "failure", "error", "~broken", "~red"],
  ["storage", "~disk", "~space", "size"],
  ["health", "healthy"],
  ["status", "~passing", "~green"],
  ["quantity", "~seat"],
  ["directory", "folder", "dir"],
  ["fee", "commission"],
  ["stat", "metric", "analytics", "insight", "~chart"],
  // The noun of a verb, which the stemmer does not fold.
  ["install", "installation"],
  ["restrict", "restriction"],
  ["protect", "protection"],
  ["connect", "connection"],
  ["verify", "verification"],
  ["register", "registration"],
  ["migrate", "migration"],
  ["integrate", "integration"],
  ["settle", "settlement"],
  ["redeem", "redemption"],
  ["suspend", "suspension"],
  ["cancel", "cancellation"],
  ["require", "requirement"],
  ["validate", "validation"],
  ["renew", "renewal"],
  ["remove", "removal"],
  ["subscribe", "subscription"],
];

/** The vocabulary as look-up tables (stems), built on the first search: a server that never searches never builds them. */
interface VocabularyTables {
  /** Stem → stems of the other words in its groups. */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** Words that say what to do with something. */
  actions: ReadonlySet<string>;
  /** Verbs that change something without being one of the groups' verbs ("watch the repo", "lock the conversation"). */
  writes: ReadonlySet<string>;
  /** Words that only ask to see something. */
  views: ReadonlySet<string>;
  /** Stem → the action groups (indexes of the first six groups) it belongs to. */
  actionGroups: ReadonlyMap<string, number[]>;
}

let vocabulary: VocabularyTables | undefined;

function tables(): VocabularyTables {
  if (vocabulary) return vocabulary;
  // The groups are plain lower-case words: split them plainly (words() runs every request rule).
  const stemsOf = (list: string[]) => [
    ...new Set(
      list.flatMap((w) =>
        w
          .split(/[^a-z0-9]+/)
          .filter((part) => part !== "")
          .map(stem),
      ),
    ),
  ];
  const synonyms = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const sources = stemsOf(group.filter((w) => !w.startsWith("^")));
    const targets = new Set(stemsOf(group.filter((w) => !w.startsWith("~"))));
    for (const s of sources) {
      const set = synonyms.get(s) ?? new Set<string>();
      for (const other of targets) if (other !== s) set.add(other);
      synonyms.set(s, set);
    }
  }
  // The groups' own verbs (create, delete, list, search, get, update) say the method already.
  const groupVerbs = stemsOf(SYNONYM_GROUPS.slice(0, 6).flat());
  const writes = stemsOf(WRITE_VERBS.split(" "));
  // Verbs that read, and verbs that are as often nouns ("a charge", "the bill", "a reply").
  const others = stemsOf(
    "compare download test ping verify kick ban reply respond answer say charge bill pay".split(" "),
  );
  const actionGroups = new Map<string, number[]>();
  SYNONYM_GROUPS.slice(0, 6).forEach((group, g) => {
    for (const s of stemsOf(group.map((w) => w.replace(/^[~^]/, ""))))
      actionGroups.set(s, [...(actionGroups.get(s) ?? []), g]);
  });
  vocabulary = {
    actionGroups,
    synonyms: new Map([...synonyms].map(([k, v]) => [k, [...v]])),
    actions: new Set([...groupVerbs, ...writes, ...others]),
    writes: new Set(writes),
    views: new Set(stemsOf([...SYNONYM_GROUPS[2]!, ...SYNONYM_GROUPS[4]!])),
  };
  return vocabulary;
}

/** Verbs that change something without being one of the groups' verbs. */
const WRITE_VERBS =
  "merge star unstar follow unfollow watch unwatch cancel run rerun upload assign unassign invite block unblock lock unlock archive unarchive review refund approve transfer send sync enable disable revoke rotate move copy redeliver dismiss accept decline reject resolve capture confirm finalize void mark";

/**
 * The action groups (create, delete, list, search, get, update) a stem is a verb of; two stems
 * sharing one say one action twice ("make a new team", "show me the list").
 */
export function actionGroupsOf(term: string): readonly number[] {
  return tables().actionGroups.get(term) ?? [];
}

/** Other stems that mean what `term` (a stem) means, per the API vocabulary. */
export function synonymsOf(term: string): readonly string[] {
  return tables().synonyms.get(term) ?? [];
}

/**
 * What a request implies without saying it: `list` when it names things in the plural, or "all"
 * of them, and no action other than looking ("latest commits on main", "which subscriptions are
 * active", "show me all customers"); the authenticated user's operations when it lists the caller's
 * own things. The search weighs implied terms lightly and never requires them.
 */
export function impliedTerms(query: string): string[] {
  const all = words(query);
  const { actions: actionWords, writes, views } = tables();
  const actions = analyze(query).filter((term) => actionWords.has(term));
  // An action that changes something, but is none of the vocabulary's own verbs ("watch the repo",
  // "lock the conversation"): the operation writes, as the method verbs of POST, PUT and PATCH say.
  const named = namedThings(query);
  if (actions.length > 0 && actions.every((term) => writes.has(term)))
    return [stem("update"), stem("create"), ...named];
  if (actions.some((term) => !views.has(term))) return named;
  const everything = all.some((word) => word === "all" || word === "every");
  const plural = all.some(
    (word) =>
      !STOPWORDS.has(word) && word.length > 3 && /[^su]s$/.test(word) && !/(is|ss)$/.test(word) && stem(word) !== word,
  );
  // Showing or seeing things in the plural is listing them ("show the branches").
  const listed = (everything || plural) && !actions.includes("list");
  // Listing the caller's own things ("list my repos", "which orgs am I in") is what the operations
  // on the authenticated user do; "my repo" alone is one repo, served like anyone's.
  const own = (everything || plural || actions.includes("list")) && firstPerson(query);
  return [...(listed ? ["list"] : []), ...(own ? [SELF_TERM] : []), ...named];
}

/** A `NAME=value` setting ("DEFAULT_REGION=eu-west-1"): a value, which names a variable. */
const SETTING = /(?<!\S)[A-Z][A-Z0-9_]{2,}=\S*/;

/** A branch named with a git-flow prefix ("feature/old-onboarding", "hotfix/1.4.1"). */
const GIT_FLOW_NAME = /(?:^|\s)(?:feature|hotfix|bugfix|release|fix|chore)\/[\w.-]+/i;
/** Every git-flow branch name of a text (for replacing). */
const GIT_FLOW_NAMES = new RegExp(GIT_FLOW_NAME.source, "gi");

/**
 * What a request's names say it is about: "#12" is an issue or a pull request (the convention of git
 * hosts), "main", "master", "develop" and "trunk" are branches ("what protection is on main"), and an
 * `owner/name` slug is a repository ("archive octo/old-site").
 */
function namedThings(query: string): string[] {
  const things: string[] = [];
  if (/(?:^|\s)#\d+\b/.test(query)) things.push(stem("issue"), "pull");
  // NAME=value is a variable ("set DEFAULT_REGION=eu-west-1").
  if (SETTING.test(query)) things.push(stem("variable"));
  // Branches by name, or by the git-flow prefix of their name ("feature/old-onboarding", "hotfix/1.4.1").
  if ((/\b(?:main|master|develop|trunk)\b/i.test(query) || GIT_FLOW_NAME.test(query)) && !/\bbranch/i.test(query))
    things.push("branch");
  // An `owner/name` slug ("acme/web"; not a file path or a URL) is a repository.
  const slugs = query
    .replace(/\bhttps?:\/\/\S+|\S+\.[a-z]{1,5}\b/gi, " ")
    // A branch, tag or path may have a slash too ("the branch release/2.3").
    .replace(/\b(?:branch|ref|tag|label|path|file|folder|dir|directory)\s+\S+/gi, " ")
    .replace(GIT_FLOW_NAMES, " ");
  if (/(?:^|\s)[\w.-]+\/[\w.-]+(?=[\s,.?!:;]|$)/.test(slugs)) things.push("repo");
  return things;
}

/**
 * Whether the request only asks to know something: a question ("who follows torvalds", "which orgs
 * am I in", "is the last run green", "how many API calls do I have left") that names none of the
 * vocabulary's verbs of changing (create, delete, update), or a request that is a question only by
 * its question mark and names no action but looking ("the default branch of acme/web?"). Such a
 * request is served by reading (GET), not by an operation that changes something. Not a question
 * that asks how to do something ("how do I delete a repo", "what's the way to add a label"), nor a
 * polite command ("can you close issue 4").
 */
export function asksOnly(query: string): boolean {
  const text = query.trim().toLowerCase();
  const asked =
    /^(?:who|whom|whose|which|why|when|where)\b/.test(text) ||
    /^how (?:many|much|long|old|big|often|far)\b/.test(text) ||
    /^what(?:'s|s| is| are| was| were| does| do| did)?\b/.test(text) ||
    /^(?:is|are|was|were|does|did|has|have)\b/.test(text);
  const { actions, views, actionGroups } = tables();
  const terms = analyze(query);
  // A request that is a question only by its mark ("merge PR 5?") asks only when it names no action.
  const marked = /\?$/.test(text) && terms.every((term) => !actions.has(term) || views.has(term));
  if (!asked && !marked) return false;
  // Asking how to do something is asking to do it ("how do I delete a repo", "what's the way to add a label").
  if (
    /^(?:how (?:do|can|could|should|would) (?:i|we|you)|how to|what(?:'s| is) the (?:best )?way to|where (?:do|can) (?:i|we)|(?:is|are) there (?:a|any) way to)\b/.test(
      text,
    )
  )
    return false;
  if (/^(?:can|could|would|will) you\b/.test(text)) return false;
  // A verb in a question describes what is asked about ("who follows torvalds", "is the last run
  // green"), unless it is one of the vocabulary's own verbs of changing (create, delete, update).
  return terms.every((term) => !(actionGroups.get(term) ?? []).some((group) => CHANGE_GROUPS.has(group)));
}

/**
 * Whether the request says to change something (a verb of the create, delete or update group) and
 * nothing to look (list, search, get), and is no question ("which files changed in #8" asks to see
 * them): "create a payment intent for cus_1". `terms` are its analysed terms.
 */
export function changesOnly(query: string, terms: readonly string[]): boolean {
  if (/^\s*(?:who|whom|whose|which|why|when|where|what|how|is|are|was|were|does|do|did|has|have)\b/i.test(query))
    return false;
  const { actionGroups } = tables();
  let changes = false;
  for (const term of terms) {
    for (const group of actionGroups.get(term) ?? []) {
      if (CHANGE_GROUPS.has(group)) changes = true;
      else return false;
    }
  }
  return changes;
}

/** The action groups (indexes into SYNONYM_GROUPS) that change something: create, delete, update. */
const CHANGE_GROUPS: ReadonlySet<number> = new Set([0, 1, 5]);

/** The stem that names the caller in operation names ("…-for-authenticated-user"). */
export const SELF_TERM = "authenticat";

/**
 * Whether the request speaks of the caller's own things ("my repos", "which orgs am I in"). "Me"
 * after a verb of giving or showing ("show me the customers") is only the reader.
 */
export function firstPerson(query: string): boolean {
  const all = words(query);
  return all.some(
    (word, i) =>
      word === "my" ||
      word === "mine" ||
      word === "myself" ||
      word === "i" ||
      (word === "me" && !READER_VERBS.has(all[i - 1] ?? "")),
  );
}

/** Verbs after which "me" is the one who reads the answer, not an owner. */
const READER_VERBS: ReadonlySet<string> = new Set([
  "show",
  "give",
  "tell",
  "let",
  "get",
  "find",
  "send",
  "fetch",
  "bring",
  "list",
]);

/**
 * Verbs for an HTTP method, indexed with the operation so that "delete the label" finds a DELETE
 * and "list labels" a GET on a collection (a path not ending in a parameter).
 */
export function methodVerbs(method: string, path: string): string {
  const item = /\}\/?$/.test(path);
  switch (method.toLowerCase()) {
    case "get":
      return item ? "get" : "list";
    case "post":
      // Stripe-style APIs update with POST on an item.
      return item ? "update" : "create";
    case "put":
    case "patch":
      return "update";
    case "delete":
      return "delete";
    default:
      return "";
  }
}
