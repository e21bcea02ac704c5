/**
 * The cost of an event as the reference shows it. The raw text is stored as written (a list of costs joined with
 * ", "); `cost` and `cost_details` are derived from it on every read.
 */

export type CurrencyPosition = "prefix" | "postfix" | "";

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: CurrencyPosition;
  /** Numeric strings, ascending ("23", "25.55"), as the reference emits them. */
  values: string[];
}

export interface PresentedCost {
  cost: string;
  cost_details: CostDetails;
}

export const EMPTY_COST_DETAILS: CostDetails = {
  currency_symbol: "",
  currency_code: "",
  currency_position: "",
  values: [],
};

const AMOUNT = /\d+(?:[.,]\d+)*/g;
const FREE = /\bfree\b/i;
// Starts only where a run of symbol characters starts: tried from inside a run, `+` would rescan it to the end.
const SYMBOL_BEFORE = /(?:^|[\d\s.,\-–])([^\d\s.,\-–]+)\s?$/u;
const SYMBOL_AFTER = /^\s?([^\d\s.,\-–]+)/u;

/** The text to store for a `cost` write value: a string as is, a number as digits, a list joined with ", ". */
export function costToStore(value: string | number | ReadonlyArray<string | number>): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  return value
    .map((item) => String(item).trim())
    .filter((item) => item !== "")
    .join(", ");
}

/**
 * A written amount as a number, whichever separators it uses: with both "." and ",", the last one is the decimal
 * point; with one kind used once before one or two digits (or after a leading 0), it is the decimal point;
 * otherwise it separates thousands. "25,55" → 25.55, "1,000.50" → 1000.5, "1.000" → 1000.
 */
export function parseAmount(token: string): number {
  const lastDot = token.lastIndexOf(".");
  const lastComma = token.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = Math.max(lastDot, lastComma);
    return Number(`${token.slice(0, decimal).replace(/[.,]/g, "")}.${token.slice(decimal + 1)}`);
  }
  const separator = lastDot >= 0 ? "." : lastComma >= 0 ? "," : undefined;
  if (separator === undefined) return Number(token);
  const parts = token.split(separator);
  const [whole = "", fraction = ""] = parts;
  if (parts.length === 2 && (fraction.length <= 2 || whole === "0")) return Number(`${whole}.${fraction}`);
  return Number(parts.join(""));
}

interface Amount {
  text: string;
  value: number;
}

function amountsOf(raw: string): Amount[] {
  const amounts = [...raw.matchAll(AMOUNT)].map((match) => ({ text: match[0], value: parseAmount(match[0]) }));
  if (FREE.test(raw)) amounts.push({ text: "0", value: 0 });
  const unique = new Map<number, Amount>();
  for (const amount of amounts) if (!unique.has(amount.value)) unique.set(amount.value, amount);
  return [...unique.values()].sort((a, b) => a.value - b.value);
}

function currencyOf(raw: string): { symbol: string; position: CurrencyPosition } {
  const first = /\d/.exec(raw);
  if (!first) return { symbol: "", position: "" };
  const before = SYMBOL_BEFORE.exec(raw.slice(0, first.index));
  if (before?.[1] && !FREE.test(before[1])) return { symbol: before[1], position: "prefix" };
  const afterFirst = raw.slice(first.index).replace(/^[\d.,]+/, "");
  const after = SYMBOL_AFTER.exec(afterFirst);
  if (after?.[1]) return { symbol: after[1], position: "postfix" };
  return { symbol: "", position: "" };
}

/** `cost` and `cost_details` of a stored cost: "20$" → "20$"; "0$, 20$, 30$" → "Free – 30$" with [0, 20, 30]. */
export function presentCost(raw: string): PresentedCost {
  const text = raw.trim();
  if (text === "") return { cost: "", cost_details: EMPTY_COST_DETAILS };
  const amounts = amountsOf(text);
  const { symbol, position } = currencyOf(text);
  const details: CostDetails = {
    currency_symbol: symbol,
    currency_code: "",
    currency_position: position,
    values: amounts.map((amount) => String(amount.value)),
  };
  const format = (amount: Amount) => {
    if (amount.value === 0) return "Free";
    if (position === "prefix") return `${symbol}${amount.text}`;
    return position === "postfix" ? `${amount.text}${symbol}` : amount.text;
  };
  const [lowest] = amounts;
  const highest = amounts[amounts.length - 1];
  if (!lowest || !highest) return { cost: text, cost_details: details };
  const cost = lowest === highest ? format(lowest) : `${format(lowest)} – ${format(highest)}`;
  return { cost, cost_details: details };
}
