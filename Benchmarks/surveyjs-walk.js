#!/usr/bin/env node
// Times SurveyJS survey-core on a generated survey the way the peer's bench.js does, but on
// files written by `SurveyBench generate` (the same survey and answer script our engine runs).
//
//   node surveyjs-walk.js PEER_DIR SURVEYJS.json ANSWERS.json [--dump-result=PATH]
//
// load = read + JSON.parse + new Survey.Model(json). walk = for each page: set q.value for every
// visible question that has an answer, in order, repeating passes while a pass set something (as
// the peer's run.js does); then nextPage() / completeLastPage(). Prints one JSON line.
"use strict";
const fs = require("fs");
const path = require("path");

const args = process.argv.slice(2);
const opt = {};
const pos = [];
for (const a of args) {
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
  if (m) opt[m[1]] = m[2] === undefined ? true : m[2];
  else pos.push(a);
}
if (pos.length !== 3) {
  process.stderr.write("usage: node surveyjs-walk.js PEER_DIR SURVEYJS.json ANSWERS.json [--dump-result=PATH]\n");
  process.exit(2);
}
const { loadSurvey } = require(path.resolve(pos[0], "load.js"));
const { Survey, version } = loadSurvey();
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const answers = JSON.parse(fs.readFileSync(pos[2], "utf8"));

let t0 = process.hrtime.bigint();
const text = fs.readFileSync(pos[1], "utf8");
const readMs = ms(t0);
t0 = process.hrtime.bigint();
const json = JSON.parse(text);
const parseMs = ms(t0);
t0 = process.hrtime.bigint();
const survey = new Survey.Model(json);
const constructMs = ms(t0);

const visited = [];
const setNames = new Set();
let answered = 0;
let blocked = false;
const tWalk = process.hrtime.bigint();
while (survey.state === "running") {
  const page = survey.currentPage;
  if (!page) break;
  visited.push(page.name);
  for (let pass = 0; pass < 100; pass++) {
    let changed = false;
    for (const q of page.questions) {
      if (setNames.has(q.name) || answers[q.name] === undefined || !q.isVisibleInSurvey) continue;
      q.value = answers[q.name];
      setNames.add(q.name);
      answered++;
      changed = true;
    }
    if (!changed) break;
  }
  const ok = survey.isLastPage ? survey.completeLastPage() : survey.nextPage();
  if (!ok) { blocked = true; break; }
}
const walkMs = ms(tWalk);

if (opt["dump-result"]) {
  const data = {};
  for (const k of Object.keys(survey.data).sort()) data[k] = survey.data[k];
  fs.writeFileSync(opt["dump-result"], JSON.stringify({ visited, data, completed: survey.state === "completed" }) + "\n");
}
const ru = process.resourceUsage();
process.stdout.write(JSON.stringify({
  engine: "survey-core",
  version,
  node: process.version,
  pages: survey.pages.length,
  read_ms: +readMs.toFixed(1),
  parse_ms: +parseMs.toFixed(1),
  construct_ms: +constructMs.toFixed(1),
  load_ms: +(readMs + parseMs + constructMs).toFixed(1),
  walk_ms: +walkMs.toFixed(1),
  ms_per_answer: answered ? +(walkMs / answered).toFixed(3) : null,
  answered,
  visited_pages: visited.length,
  completed: survey.state === "completed",
  blocked,
  data_keys: Object.keys(survey.data).length,
  peak_rss_mb: Math.round(ru.maxRSS / 102.4) / 10,
}) + "\n");
