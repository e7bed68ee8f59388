// Checks expressions against survey-core: the SurveyJS column of the examples table in
// docs/expressions.md (each expression, run with the page's data, must give that column's result, or
// fail to run for *error*), and every case of Tests/Differential/expression-cases.json (its
// `expected`, or `error`). Usage: node Tests/Differential/expressions.js PATH/survey.core.min.js
// [--print] (--print lists survey-core's result for every case, to write a new case from).
"use strict";
// Dates are read and shown in UTC, and the clock stands at 2026-12-01 00:00 UTC, the date both files
// are written for (today() in survey-core is the real date).
process.env.TZ = "UTC";
const fs = require("fs");
const path = require("path");

const core = process.argv[2];
if (!core) {
  console.error("usage: node Tests/Differential/expressions.js PATH/survey.core.min.js [--print]");
  process.exit(2);
}
const printing = process.argv.includes("--print");
const Survey = require(path.resolve(core));
const root = path.join(__dirname, "..", "..");
const RealDate = Date;
const now = "2026-12-01T00:00:00Z";
global.Date = class extends RealDate {
  constructor(...args) { super(...(args.length ? args : [now])); }
  static now() { return new RealDate(now).getTime(); }
};

/// A result as the files write it: a Date as `YYYY-MM-DD` (at midnight) or `YYYY-MM-DDTHH:MM:SS`,
/// undefined, NaN and infinities as null.
function plain(value) {
  if (value === undefined) return null;
  if (value instanceof RealDate) {
    const text = value.toISOString();
    return text.endsWith("T00:00:00.000Z") ? text.slice(0, 10) : text.slice(0, 19);
  }
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

/// The expression's result on `data`: `{value}`, or `{error: true}` when survey-core cannot run it
/// (it logs an error, or throws). An unknown function is only a warning there: its result is null.
function run(expression, data) {
  const errors = [];
  const originalError = console.error;
  const originalWarn = console.warn;
  console.error = (...parts) => errors.push(parts.join(" "));
  console.warn = () => {};
  try {
    const runner = new Survey.ExpressionRunner(expression);
    if (!runner.canRun()) return { error: true };
    const value = runner.runValues(JSON.parse(JSON.stringify(data)), {});
    if (errors.length) return { error: true };
    return { value: plain(value) };
  } catch (error) {
    return { error: true };
  } finally {
    console.error = originalError;
    console.warn = originalWarn;
  }
}

function agrees(expected, actual) {
  return expected.error ? actual.error === true : !actual.error && JSON.stringify(actual.value) === JSON.stringify(expected.value);
}

function describe(result) {
  return result.error ? "an error" : JSON.stringify(result.value);
}

let failures = 0;

// The examples table of docs/expressions.md.
const doc = fs.readFileSync(path.join(root, "docs", "expressions.md"), "utf8");
const table = doc.split("<!-- examples:begin -->")[1].split("<!-- examples:end -->")[0];
const tableData = {
  s: "Yes", n: 5, arr: ["a", "B"], t: "hello", e: "", b: true, str5: "5", d1: "2024-01-31",
  d2: "2024-03-01", rows: [{ p: 1 }, { p: 2.5 }, { p: "3" }, { q: "b" }],
};
let rows = 0;
let tableFailures = 0;
for (const line of table.split("\n")) {
  const cells = line.split("|").map((cell) => cell.trim());
  if (cells.length < 5 || !cells[1].startsWith("`")) continue;
  rows += 1;
  const expression = cells[1].slice(1, -1);
  const expected = cells[3] === "*error*" ? { error: true } : { value: JSON.parse(cells[3].slice(1, -1)) };
  const actual = run(expression, tableData);
  if (!agrees(expected, actual)) {
    tableFailures += 1;
    console.log(`DIFFERENT: ${expression}: the table says ${cells[3]}, survey-core gives ${describe(actual)}`);
  }
}
failures += tableFailures;
console.log(`${rows} rows of docs/expressions.md checked against survey-core ${Survey.Version}: ${tableFailures} different`);

// The case set.
const file = JSON.parse(fs.readFileSync(path.join(__dirname, "expression-cases.json"), "utf8"));
let caseFailures = 0;
for (const item of file.cases) {
  const actual = run(item.expression, item.data || file.data);
  if (printing) console.log(JSON.stringify({ expression: item.expression, ...(actual.error ? { error: true } : { expected: actual.value }) }));
  const expected = item.error ? { error: true } : { value: item.expected };
  if (!agrees(expected, actual)) {
    caseFailures += 1;
    console.log(`DIFFERENT: ${item.expression}: expression-cases.json says ${describe(expected)}, survey-core gives ${describe(actual)}`);
  }
}
failures += caseFailures;
console.log(`${file.cases.length} cases of Tests/Differential/expression-cases.json checked against survey-core ${Survey.Version}: ${caseFailures} different`);
process.exit(failures ? 1 : 0);
