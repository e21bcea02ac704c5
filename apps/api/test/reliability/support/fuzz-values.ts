import fc from "fast-check";

/**
 * Hostile values for the parameters of the API, by the kind of parameter.
 *
 * A *breaker* makes any request invalid (a 4xx whatever else the request holds): the server must refuse it and
 * leave the database as it was. Breakers marked `jsonOnly` are invalid because of their JSON type (the number
 * 1.5, an object) and are only sent where types survive: JSON bodies and tRPC.
 *
 * A *noise* value may or may not be valid (SQL and HTML fragments, odd Unicode, extreme but legal numbers): the
 * server must answer it with a 2xx or a 4xx, never a 5xx.
 */
export interface FuzzValue {
  value: unknown;
  /** Only JSON keeps what makes it hostile (a number, a boolean, a list of strings, an empty container). */
  jsonOnly?: boolean;
}

export type FieldKind =
  | "requiredText" // title, names: non-empty
  | "nonBlankText" // event description/excerpt, term description: if sent, not blank
  | "clearableText" // venue/organizer fields: "" or null clear them
  | "clearableLongText" // venue/organizer description/excerpt: as clearableText, bounded by the body limit only
  | "slug"
  | "date"
  | "listDate"
  | "bool"
  | "status"
  | "statusFilter"
  | "timezone"
  | "url"
  | "password"
  | "cost"
  | "image"
  | "termLinks" // categories/tags of an event write: ids or names
  | "termFilter" // categories/tags of the event list: ids or slugs
  | "venueLinks"
  | "organizerLinks"
  | "idFilter" // a non-empty list of existing ids
  | "idList" // a non-empty list of ids, existing or not (events `include`)
  | "parentEvent" // post_parent of an event write
  | "userRef" // author
  | "eventRef" // an existing event (filters, translation_of of events)
  | "venueRef"
  | "organizerRef"
  | "categoryRef" // parent of a category, translation_of of a category
  | "tagRef"
  | "page"
  | "perPage"
  | "search"
  | "latitude"
  | "longitude"
  | "radius"
  | "order"
  | "orderby"
  | "context"
  | "namespace"
  | "language"
  | "webhookUrl" // where a webhook's deliveries go (the server allows http:// and private addresses in the fuzz)
  | "changeTypes" // a webhook's record types: a list or CSV of event, venue, organizer, category, tag
  | "changeActions" // a webhook's actions: a list or CSV of created, updated, trashed, deleted
  | "webhookNote" // a webhook's description: up to 500 characters
  | "attemptsPerPage"; // per_page of a webhook's deliveries: 1 to 100

/** An id no record has (the largest 32-bit integer). */
export const UNKNOWN_ID = 2_147_483_647;

const json = (value: unknown): FuzzValue => ({ value, jsonOnly: true });
/** Objects with content: they stay objects in a query string or form body too (`k[nested][object]=1`). */
const structured = (value: unknown): FuzzValue => ({ value });
const any = (value: unknown): FuzzValue => ({ value });

const SQL = [
  "' OR '1'='1",
  '1; DROP TABLE "Event"; --',
  '"; DELETE FROM "User"; --',
  "%' AND 1=1 AND '%'='",
  "1) UNION SELECT tokenHash FROM ApiToken --",
  "'; SELECT pg_sleep(5); --",
  "\\' OR 1=1 -- \\",
];
const HTML = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  "</p><p>",
  "&lt;&amp;&quot;",
  "<!--",
  "]]>",
];
const UNICODE = [
  "\ud800",
  "a\udfffb",
  "\u202eevil\u202c",
  "zero\u200bwidth",
  "🎉🎊",
  "e\u0301",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "\ufeffbom",
  "ＦＵＬＬ",
  "Ωmega ß ǅ",
  "日本語のイベント",
  "\u0001\u001f\u007f",
  "line\nbreak\r\ttab",
  "%E0%A4%A",
  "%zz",
  "%%",
  "%2F..%2F",
  "../../etc/passwd",
];

/** Strings of any code points (lone surrogates included), without U+0000 (a breaker of its own). */
const anyString = fc.string({ unit: "binary", maxLength: 40 }).map((text) => text.replaceAll("\u0000", ""));

/** Free text that may or may not be valid where it is sent. */
export const textNoise: fc.Arbitrary<FuzzValue> = fc.oneof(
  fc.constantFrom(...SQL, ...HTML, ...UNICODE, "", " ", "x".repeat(500)).map(any),
  anyString.map(any),
);

const numberNoise = fc.constantFrom(0, -1, 1, 1.5, -2_147_483_648, 2_147_483_647, 2 ** 53, 1e308, -1e308, 5e-324);

/** A value that is not valid for any parameter: a string with U+0000. */
export const NUL_BREAKER: FuzzValue = any("fuzz\u0000value");

/** A value nested deeper than any body may be (400 rest_invalid_json). */
export function deeplyNested(depth: number): FuzzValue {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [{ item: value }] : { nested: value };
  return structured(value);
}

/** A string of 1 MiB: over the body limit in a body (413), over Node's header limit in a URL (431). */
const ONE_MEGABYTE: FuzzValue = { value: "m".repeat(1024 * 1024) };

/** `count` ids as CSV (101: one more than a list parameter takes). */
const idsCsv = (count: number): string => Array.from({ length: count }, (_, i) => i + 1).join(",");

/** Every parameter refuses these: U+0000, an object with content, arrays of objects, very deep nesting, 1 MiB. */
export const genericBreaker: fc.Arbitrary<FuzzValue> = fc.oneof(
  fc.constant(NUL_BREAKER),
  fc.constant(ONE_MEGABYTE),
  fc.constantFrom(structured({ nested: { object: 1 } }), structured([{ nested: true }]), json({ "": [] })),
  fc.integer({ min: 65, max: 1_000 }).map(deeplyNested),
);

const tooLong = (length: number) => any("x".repeat(length));

/** Long text is bounded by the body limit only (1 MiB in the tests): one character more is a 413. */
const overBodyLimit = tooLong(1024 * 1024 + 1);

const BREAKERS: Record<FieldKind, FuzzValue[]> = {
  requiredText: [any(""), any("   "), any("\t\n"), tooLong(2_000), json(5), json(true), json(["a"])],
  nonBlankText: [any("   "), overBodyLimit, json(5), json(false), json(["a"])],
  clearableText: [tooLong(70_000), json(5), json(true), json(["a"])],
  clearableLongText: [overBodyLimit, json(5), json(true), json(["a"])],
  slug: [any(""), any("   "), tooLong(1_000), json(7), json(["a"])],
  date: [any("zzzz-not-a-date"), any("+999999 years"), any("NaN"), any("[date]"), json(1e308), json(true)],
  listDate: [any("zzzz-not-a-date"), any("-999999 years"), any("[date]")],
  bool: [any("maybe"), any("2"), any("yes"), any("truee"), json(2), json("")],
  status: [any("bogus"), any("trash"), any("PUBLISH"), json(1)],
  statusFilter: [any("bogus"), any("publish,bogus"), any("")],
  timezone: [any("Mars/Olympus_Mons"), any("Not/A_Zone"), tooLong(100), json(1)],
  url: [any("javascript:alert(1)"), any("not a url"), any("ftp://example.org/"), json(1)],
  password: [tooLong(256), json(1), json(true)],
  cost: [tooLong(1_001), json(Array.from({ length: 51 }, () => "1$")), json(true)],
  image: [any("not a url"), any(String(UNKNOWN_ID)), any("javascript:alert(1)"), json(-1), json(1.5)],
  termLinks: [tooLong(201), json(-5), json(1.5), json(true), json(Array.from({ length: 51 }, (_, i) => `t${i}`))],
  termFilter: [tooLong(201), any(""), any(idsCsv(101))],
  venueLinks: [any("abc"), any("-1"), any("1.5"), any(String(UNKNOWN_ID)), structured([{ id: UNKNOWN_ID }])],
  organizerLinks: [any("abc"), any("-1"), any(String(UNKNOWN_ID)), structured([{ website: "https://x.example" }])],
  idFilter: [any("abc"), any("-1"), any("0"), any(""), any(String(UNKNOWN_ID)), any(idsCsv(101))],
  idList: [any("abc"), any("-1"), any("0"), any(""), any("2147483648"), any(idsCsv(101))],
  parentEvent: [any("-1"), any("abc"), any(String(UNKNOWN_ID))],
  userRef: [any("0"), any("-1"), any("abc"), any(String(UNKNOWN_ID)), any("2147483648")],
  eventRef: [any("0"), any("abc"), any(String(UNKNOWN_ID))],
  venueRef: [any("abc"), any(String(UNKNOWN_ID))],
  organizerRef: [any("abc"), any(String(UNKNOWN_ID))],
  categoryRef: [any("-1"), any("abc"), any(String(UNKNOWN_ID))],
  tagRef: [any("abc"), any(String(UNKNOWN_ID))],
  page: [any("0"), any("-1"), any("abc"), any("1.5"), any("99999999999999999999")],
  perPage: [any("0"), any("-1"), any("abc"), any("1e3")],
  search: [any(""), any("   "), tooLong(201)],
  latitude: [any("91"), any("-90.5"), any("abc")],
  longitude: [any("181"), any("-180.01"), any("abc")],
  radius: [any("-1"), any("20101"), any("abc")],
  order: [any("up"), any("")],
  orderby: [any("random"), any("")],
  context: [any("bogus"), any("")],
  namespace: [any("wp/v2"), any("cal/events/v2")],
  language: [any("xx"), any("EN"), any("de-DE"), any("zh"), any("")],
  webhookUrl: [
    any(""),
    any("   "),
    any("not a url"),
    any("/relative/path"),
    any("javascript:alert(1)"),
    any("ftp://127.0.0.1/fuzz"),
    any("file:///etc/passwd"),
    any("http://user:secret@127.0.0.1:9/fuzz"),
    // `.invalid` never resolves (RFC 6761), with or without DNS: a URL whose host has no address.
    any("https://no-such-host.invalid/fuzz"),
    any(`http://127.0.0.1:9/${"x".repeat(2_000)}`),
    json(1),
    json(true),
    json(["http://127.0.0.1:9/fuzz"]),
  ],
  changeTypes: [any("bogus"), any("event,bogus"), any("Event"), any("events"), json(5), json([1]), json(null)],
  changeActions: [any("bogus"), any("created,publish"), any("CREATED"), any("create"), json(5), json([true])],
  webhookNote: [tooLong(501), json(5), json(true), json(["a"])],
  attemptsPerPage: [any("0"), any("-1"), any("abc"), any("1.5"), any("101"), any("1e3")],
};

/** Values of the kind that may be valid (plus free text): what a sloppy or hostile client sends. */
const NOISE: Partial<Record<FieldKind, FuzzValue[]>> = {
  date: ["tomorrow 9am", "1700000000", "2030-01-01T10:00:00+05:30", "+1 week", "20300101", "999999999999"].map(any),
  listDate: ["2020-01-01", "1999-12-31 23:59:59", "next friday", "0"].map(any),
  bool: ["TRUE", " 0 ", "1", "false"].map(any).concat([json(true), json(0)]),
  timezone: ["", "Europe/Berlin", "Pacific/Kiritimati", "Etc/GMT+12", "UTC"].map(any),
  url: ["", "https://example.org/<script>", "http://[::1]/", "https://example.org/%zz?a=%E0"].map(any),
  cost: ["€6.50 - €8.50", "Free", "1e309", "-5$", "0"].map(any).concat([json(["0$", "20$"]), json(1e308)]),
  image: ["https://example.org/a.png", "", "0"].map(any).concat([json(null)]),
  termLinks: ["", "0", "Fuzz term", "1,2,3"].map(any).concat([json([]), json(null)]),
  termFilter: ["fuzz", "1,2"].map(any),
  venueLinks: ["", "0"].map(any).concat([json([]), structured({ venue: "Fuzz inline venue" })]),
  organizerLinks: ["", "0"].map(any).concat([structured([{ organizer: "Fuzz inline organizer" }])]),
  page: ["1", "2", "1000000"].map(any),
  perPage: ["1", "50", "51", "1000000"].map(any),
  status: ["publish", "draft", "pending", "private", "future"].map(any),
  statusFilter: ["publish", "draft,pending", "trash"].map(any),
  latitude: ["0", "-90", "89.9999"].map(any),
  longitude: ["0", "180", "-179.5"].map(any),
  radius: ["0", "20100", "0.001"].map(any),
  language: ["en", "de", "fr", "zh-hans"].map(any),
  order: ["asc", "desc"].map(any),
  orderby: ["id", "name", "slug", "count", "include"].map(any),
  context: ["view", "embed", "edit"].map(any),
  // Valid where the server allows insecure webhooks (as the fuzz's does), except the last: no DNS here, or not
  // public. Nothing that would make a delivery wait for a timeout: closed local ports only.
  webhookUrl: [
    " http://127.0.0.1:9/padded ",
    "http://localhost:9/fuzz",
    "http://[::1]:9/fuzz",
    "HTTP://127.0.0.1:9/upper?query=1#fragment",
    "https://example.org/hook",
  ].map(any),
  changeTypes: ["event", "venue,tag", " organizer , category ", ""]
    .map(any)
    .concat([json([]), json(["event", "category"]), json(["tag,venue"])]),
  changeActions: ["created", "updated,deleted", " trashed ", ""]
    .map(any)
    .concat([json([]), json(["created", "deleted"])]),
  webhookNote: ["", "x".repeat(500), "Fuzz note"].map(any),
  attemptsPerPage: ["1", "20", "100", " 5 "].map(any),
};

export function breakerOf(kind: FieldKind): fc.Arbitrary<FuzzValue> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...BREAKERS[kind]) },
    { weight: 1, arbitrary: genericBreaker },
  );
}

export function noiseOf(kind: FieldKind): fc.Arbitrary<FuzzValue> {
  const own = NOISE[kind];
  const numbers = numberNoise.map(json);
  return own
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, textNoise, numbers)
    : fc.oneof({ weight: 3, arbitrary: textNoise }, numbers);
}

/** Parameters no operation knows (ignored, unless they carry a breaker); prototype keys among them. */
export const extraParameter: fc.Arbitrary<[string, FuzzValue]> = fc.tuple(
  fc.oneof(
    fc.constantFrom("__proto__", "constructor", "prototype", "id", "rest_url", "utc_start_date", "$where", "1"),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 12 }),
  ),
  fc.oneof(
    textNoise,
    numberNoise.map(json),
    fc.constant(structured({ admin: true })),
    fc.constant(json([1, [2, [3]]])),
  ),
);
