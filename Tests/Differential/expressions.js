// Checks the SurveyJS column of the examples table in docs/expressions.md against survey-core:
// each expression, run with the page's data, must give that column's result (or fail to run, for
// *error*). Usage: node Tests/Differential/expressions.js PATH/survey.core.min.js
"use strict";
const fs = require("fs");
const path = require("path");

const core = process.argv[2];
if (!core) {
  console.error("usage: node Tests/Differential/expressions.js PATH/survey.core.min.js");
  process.exit(2);
}
const Survey = require(path.resolve(core));
const doc = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "expressions.md"), "utf8");
const table = doc.split("<!-- examples:begin -->")[1].split("<!-- examples:end -->")[0];
const data = {
  s: "Yes", n: 5, arr: ["a", "B"], t: "hello", e: "", b: true, str5: "5", d1: "2024-01-31",
  d2: "2024-03-01", rows: [{ p: 1 }, { p: 2.5 }, { p: "3" }, { q: "b" }],
};
// today() in survey-core is the real date: the table is written for 2026-12-01.
const RealDate = Date;
global.Date = class extends RealDate {
  constructor(...args) { super(...(args.length ? args : ["2026-12-01T12:00:00"])); }
  static now() { return new RealDate("2026-12-01T12:00:00").getTime(); }
};

function run(expression) {
  const errors = [];
  const originalError = console.error;
  console.error = (...parts) => errors.push(parts.join(" "));
  try {
    const runner = new Survey.ExpressionRunner(expression);
    if (!runner.canRun()) return { error: true };
    let value = runner.runValues(data, {});
    if (errors.length) return { error: true };
    if (value instanceof RealDate) value = value.toISOString().slice(0, 10);
    return { value: value === undefined ? null : value };
  } catch (error) {
    return { error: true };
  } finally {
    console.error = originalError;
  }
}

let failures = 0;
let rows = 0;
for (const line of table.split("\n")) {
  const cells = line.split("|").map((cell) => cell.trim());
  if (cells.length < 5 || !cells[1].startsWith("`")) continue;
  rows += 1;
  const expression = cells[1].slice(1, -1);
  const expected = cells[3] === "*error*" ? { error: true } : { value: JSON.parse(cells[3].slice(1, -1)) };
  const actual = run(expression);
  const same = expected.error ? actual.error === true : !actual.error && JSON.stringify(actual.value) === JSON.stringify(expected.value);
  if (!same) {
    failures += 1;
    console.log(`DIFFERENT: ${expression}: the table says ${cells[3]}, survey-core gives ${actual.error ? "an error" : JSON.stringify(actual.value)}`);
  }
}
console.log(`${rows} rows of docs/expressions.md checked against survey-core ${Survey.Version}: ${failures} different`);
process.exit(failures ? 1 : 0);
