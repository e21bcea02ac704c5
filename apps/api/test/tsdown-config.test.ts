import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { toLatin1 } from "../tsdown.config.ts";

/** What a script's last expression evaluates to. */
function evaluated(code: string): unknown {
  return runInNewContext(code);
}

const TICK = "`";

/** A script with characters beyond Latin-1 in a comment, strings, a template, regular expressions and a name. */
const SOURCE = [
  "// Étendue – 範囲 😀",
  'const ёлка = "ёлка – 😀";',
  `const template = ${TICK}$\{ёлка} — ok${TICK};`,
  'const escaped = "\\\\–";',
  'const range = /^[а-я]+$/.test("ёж".slice(1));',
  'const astral = /^😀$/u.test("😀");',
  'const inClass = /[😀]/u.test("😀");',
  `const pattern = new RegExp(${TICK}^(?:\\\\–|\\\\〜)$${TICK}).test("〜");`,
  '({ ёлка, template, escaped, range, astral, inClass, pattern, length: "😀é".length });',
].join("\n");

describe("the bundle's sources in Latin-1 (toLatin1)", () => {
  it("writes every character beyond Latin-1 as an escape", () => {
    expect([...toLatin1(SOURCE)].every((char) => char.charCodeAt(0) <= 0xff)).toBe(true);
    expect(toLatin1("é ü")).toBe("é ü");
  });

  it("leaves strings, templates, regular expressions and names meaning what they meant", () => {
    expect(evaluated(SOURCE)).toEqual({
      ёлка: "ёлка – 😀",
      template: "ёлка – 😀 — ok",
      escaped: "\\–",
      range: true,
      astral: true,
      inClass: true,
      pattern: true,
      length: 3,
    });
    expect(evaluated(toLatin1(SOURCE))).toEqual(evaluated(SOURCE));
  });
});
