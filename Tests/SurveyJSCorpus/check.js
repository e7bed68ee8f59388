#!/usr/bin/env node
// Replays every case of the SurveyJS corpus (Tests/SurveyJSCorpus) through survey-core 3.0.4 with
// the differential suite's own peer (Tests/Differential/peer.js, run through its CLI) and checks
// that each run is clean and goes where it was written to go.
//
//   node Tests/SurveyJSCorpus/check.js              one line per run: completed/stopped, pages
//   node Tests/SurveyJSCorpus/check.js --verbose    also the pages visited and survey.data
//   node Tests/SurveyJSCorpus/check.js CASE...      only these case directories
//
// survey-core comes from $SURVEY_CORE_JS, else ${SURVEYJS_CACHE:-/tmp/surveyjs-cache}/
// survey-core-3.0.4/survey.core.min.js, which `python3 Tests/differential.py` downloads on first
// use (docs/differential.md, "What it needs").
//
// A run is one answer script of a case: answers.json is CASE, answers-VARIANT.json is
// CASE:VARIANT (the names differential.py gives them). A run is bad, and the exit status 1, when
// * survey-core warned (an expression it cannot parse, ...) or survey.jsonErrors is not empty (an
//   unknown property or type);
// * an answer names no question of surveyjs.json, or was never used (its question never shown);
// * an answer is not in survey.data as given at the end (its question was hidden by then and
//   survey-core cleared it, or something changed it; inside dynamic panels and matrix rows each
//   given member is checked);
// * the run did not end as EXPECTED below says: the exact pages visited, and completed or stopped.
// An EXPECTED entry without a run is an error too. Exit status 2: survey-core or node cannot be
// used, or a file cannot be read.
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const CORPUS = __dirname;
const PEER = path.join(CORPUS, "..", "Differential", "peer.js");

// What each run must do in survey-core: the pages it visits, in order, and whether it completes.
// A run that stops on purpose says so with `stopped` (the page it stops on is the last visited).
const EXPECTED = {
  "event-budget-range": { visited: ["budget"] },
  "event-budget-range:large": { visited: ["budget", "big"] },
  "event-budget-range:no-guests": { visited: ["budget"], stopped: true },
  "event-budget-range:short-venue": { visited: ["budget"], stopped: true },
  "checkup-date-kept": { visited: ["checkup", "notes"] },
  "site-safety-yes-one": { visited: ["workplace", "hazardDetails", "sleep"] },
  "order-review-display": { visited: ["customer", "items"] },
  "bird-count-step-zero": { visited: ["site", "notes"] },
  "course-reasons-no-columns": { visited: ["start"], stopped: true },
  "app-onboarding": { visited: ["welcome", "habits", "reminders", "look"] },
  "app-onboarding:no-reminders": { visited: ["welcome", "habits", "reminders", "look"] },
  "household-score-early-end": { visited: ["screening", "household"] },
  "household-score-early-end:under-18": { visited: ["screening"] },
  "service-ratings-all-rows": { visited: ["visit", "extras"] },
  "service-ratings-all-rows:unrated": { visited: ["visit"], stopped: true },
  "service-ratings-all-rows:parking": { visited: ["visit", "extras"] },
  "site-hours-nested": { visited: ["audit", "wrapUp"] },
  "site-hours-nested:answered": { visited: ["audit", "wrapUp"] },
  "skills-matrix-conditions": { visited: ["stack", "levels"] },
  "skills-matrix-conditions:no-mentor": { visited: ["stack", "levels"] },
  "bmi-display-digits": { visited: ["measures", "advice"] },
  "bmi-display-digits:overweight": { visited: ["measures", "advice"] },
  "complaint-counts-defaults": { visited: ["counts", "notes"] },
  "complaint-counts-defaults:answered": { visited: ["counts", "notes"] },
  "course-ratings-rows": { visited: ["ratings", "overall"] },
  "course-ratings-rows:one-row": { visited: ["ratings"], stopped: true },
  "course-ratings-rows:three-rows": { visited: ["ratings", "overall"] },
  "bug-report": { visited: ["summary", "reproduce", "environment", "followup"] },
  "bug-report:intermittent": { visited: ["summary", "reproduce", "environment", "followup"] },
  "car-service-booking": { visited: ["vehicle", "work", "appointment", "contact"] },
  "car-service-booking:electric": { visited: ["vehicle", "work", "appointment", "contact"] },
  "clinic-intake": { visited: ["patient", "visit", "history", "pregnancy", "insurance", "consent"] },
  "clinic-intake:checkup": { visited: ["patient", "visit", "history", "insurance", "consent"] },
  "conference-talk-proposal": { visited: ["speaker", "talk", "workshop", "cospeaker", "extras"] },
  "conference-talk-proposal:lightning": { visited: ["speaker", "talk", "cospeaker", "extras"] },
  "course-evaluation": { visited: ["about", "teaching", "labs", "summary"] },
  "course-evaluation:absent": { visited: ["about", "teaching", "summary"] },
  "customer-satisfaction": { visited: ["order", "experience", "overall"] },
  "customer-satisfaction:happy": { visited: ["order", "experience", "overall"] },
  "employee-engagement": { visited: ["context", "engagement", "wellbeing", "managers", "open"] },
  "employee-engagement:individual": { visited: ["context", "engagement", "wellbeing", "open"] },
  "event-registration": { visited: ["attendee", "format", "venue", "consent"] },
  "event-registration:online": { visited: ["attendee", "format", "stream", "consent"] },
  "expense-report": { visited: ["trip", "costs", "approval"] },
  "expense-report:single-receipt": { visited: ["trip", "costs", "approval"] },
  "family-health-history": { visited: ["patient", "familyMembers", "counselling", "finish"] },
  "family-health-history:one-relative": { visited: ["patient", "familyMembers", "finish"] },
  "household-size": { visited: ["household", "contact"] },
  "household-size:details-skipped": { visited: ["household", "contact"] },
  "grant-eligibility": { visited: ["organisation", "project", "contact"] },
  "grant-eligibility:large-income": { visited: ["organisation", "contact"] },
  "grant-eligibility:not-a-charity": { visited: ["organisation", "contact"] },
  "ticket-filters": { visited: ["filters", "escalation", "save"] },
  "ticket-filters:any": { visited: ["filters", "save"] },
  "shop-category-review": { visited: ["categories", "followUp", "signOff"] },
  "shop-category-review:keep": { visited: ["categories", "signOff"] },
  "workshop-preferences": { visited: ["topics", "group"] },
  "tenure-multiple-text": { visited: ["tenure", "role"] },
  "tenure-multiple-text:too-many-months": { visited: ["tenure"], stopped: true },
  "tenure-multiple-text:no-months": { visited: ["tenure"], stopped: true },
  "tone-sliders-panel": { visited: ["sound", "closing"] },
  "workshop-preferences:no-sessions": { visited: ["topics"], stopped: true },
  "workshop-preferences:no-lunch": { visited: ["topics", "group"], stopped: true },
  "courier-booking-masks": { visited: ["sender"] },
  "courier-booking-masks:international": { visited: ["sender", "international"] },
  "courier-booking-masks:no-pickup": { visited: ["sender"], stopped: true },
  "grant-application-required-if": { visited: ["applicant", "budget"] },
  "grant-application-required-if:cost-without-amount": { visited: ["applicant", "budget"], stopped: true },
  "grant-application-required-if:organisation-without-number": { visited: ["applicant"], stopped: true },
  "grant-application-required-if:organisation": { visited: ["applicant", "budget"] },
  "household-ids-item-patterns": { visited: ["ids", "done"] },
  "household-ids-item-patterns:short-card": { visited: ["ids"], stopped: true },
  "household-ids-item-patterns:bad-district": { visited: ["ids"], stopped: true },
  "platform-usage-matrix": { visited: ["usage", "maps"] },
  "platform-usage-matrix:mail-only": { visited: ["usage"] },
  "platform-usage-matrix:nothing": { visited: ["usage"], stopped: true },
  "trip-log-hidden-items": { visited: ["trips", "end"] },
  "trip-log-hidden-items:untouched": { visited: ["trips", "end"] },
  "trip-log-hidden-items-kept": { visited: ["trips", "end"] },
  "trip-log-hidden-items-kept:untouched": { visited: ["trips", "end"] },
  "volunteer-roster": { visited: ["volunteer", "shift"] },
  "crew-roster-shared-panels": { visited: ["crew", "wrapUp"] },
  "crew-roster-shared-panels:paid": { visited: ["crew", "shifts", "wrapUp"] },
  "crew-roster-shared-carousel": { visited: ["crew", "wrapUp"] },
  "crew-roster-shared-carousel:paid": { visited: ["crew", "shifts", "wrapUp"] },
  "tool-library-loans": { visited: ["member"] },
  "benefits-finder-choice-conditions": { visited: ["needs", "programs"] },
  "clinic-checkin-required-page": { visited: ["visitor", "symptoms", "consent"] },
  "clinic-checkin-required-page:comment-only": { visited: ["visitor", "symptoms", "consent"] },
  "clinic-checkin-required-page:nothing": { visited: ["visitor", "symptoms"], stopped: true },
  "benefits-finder-choice-conditions:food-and-care": { visited: ["needs", "programs"] },
  "tool-library-loans:borrowing": { visited: ["member"] },
  "travel-dates": { visited: ["dates", "confirm"] },
  "class-grades": { visited: ["classroom", "experience"] },
  "class-grades:other-grade": { visited: ["classroom", "experience"] },
  "travel-dates:past-stopover": { visited: ["dates"], stopped: true },
  "club-costs": { visited: ["member", "costs", "end"] },
  "club-costs:untouched": { visited: ["member", "costs", "end"] },
  "club-costs:no-boat": { visited: ["member", "end"] },
  "festival-crew": { visited: ["about", "stage", "catering", "availability"] },
  "festival-crew:info-desk": { visited: ["about", "availability"] },
  "canteen-shifts": { visited: ["site", "menu"] },
  "canteen-shifts:evening": { visited: ["site", "menu"] },
  "kitchen-inspection": { visited: ["visit", "sign-off"] },
  "kitchen-inspection:no-stations": { visited: ["visit", "sign-off"] },
  "gym-membership": { visited: ["member", "choosePlan", "health", "induction", "terms"] },
  "gym-membership:swimmer": { visited: ["member", "choosePlan", "health", "terms"] },
  "health-screening": { visited: ["visitor", "symptoms", "clear"] },
  "health-screening:fever-only": { visited: ["visitor", "symptoms", "postpone"] },
  "health-screening:unwell": { visited: ["visitor", "symptoms", "gastro", "postpone"] },
  "home-repair-request": { visited: ["tenant", "problem", "emergency", "access"] },
  "home-repair-request:routine": { visited: ["tenant", "problem", "access"] },
  "hotel-stay-feedback": { visited: ["stay", "business", "overall"] },
  "hotel-stay-feedback:leisure": { visited: ["stay", "overall"] },
  "household-census": { visited: ["home", "others", "work"] },
  "household-census:alone": { visited: ["home", "work"] },
  "insurance-quote": { visited: ["driver", "vehicle", "addresses", "correspondence", "quote"] },
  "insurance-quote:claims": { visited: ["driver", "claims", "vehicle", "addresses", "correspondence", "quote"] },
  "job-application": { visited: ["contact", "position", "leadership", "documents", "logistics"] },
  "job-application:junior": { visited: ["contact", "position", "documents", "logistics"] },
  "loan-prequalification": { visited: ["applicant", "finances", "loan"] },
  "loan-prequalification:minor": { visited: ["applicant"] },
  "loan-prequalification:overextended": { visited: ["applicant", "finances"] },
  "volunteer-shifts": { visited: ["volunteer", "thanks"] },
  "volunteer-shifts:driver-without-licence": { visited: ["volunteer"], stopped: true },
  "partner-only-feedback": { visited: [], stopped: true },
  "meeting-room-booking": { visited: ["page1", "room", "page2", "page3"] },
  "meeting-room-booking:no-lunch": { visited: ["page1", "room", "page3"] },
  "market-research-screener": { visited: ["screener", "usage", "availability"] },
  "market-research-screener:light-drinker": { visited: ["screener", "usage"] },
  "market-research-screener:screened-out": { visited: ["screener"] },
  "newsletter-signup": { visited: ["single-page"] },
  "newsletter-signup:no-rides": { visited: ["single-page"] },
  "nps-feedback": { visited: ["score", "detractor", "followup"] },
  "nps-feedback:passive": { visited: ["score", "passive", "followup"] },
  "nps-feedback:promoter": { visited: ["score", "promoter", "followup"] },
  "order-form": { visited: ["shirts", "delivery", "review"] },
  "order-form:collect": { visited: ["shirts", "delivery", "review"] },
  "order-form-computed": { visited: ["order"] },
  "order-form-computed:small": { visited: ["order"] },
  "pet-adoption": { visited: ["animal", "home", "daily", "experience", "agreement"] },
  "pet-adoption:cat-flat": { visited: ["animal", "home", "daily", "experience", "agreement"] },
  "product-feedback": { visited: ["usage", "ratings", "improve"] },
  "product-feedback:unhappy": { visited: ["usage", "ratings", "improve"] },
  "rental-application": { visited: ["applicant", "household", "income", "guarantor", "history", "documents"] },
  "rental-application:high-earner": { visited: ["applicant", "household", "income", "history", "documents"] },
  "research-consent": { visited: ["information", "participant", "sleep", "sign"] },
  "research-consent:declined": { visited: ["information"] },
  "research-consent:shift-worker": { visited: ["information", "participant"] },
  "restaurant-feedback": { visited: ["visit", "food", "service", "last"] },
  "restaurant-feedback:delivery": { visited: ["visit", "food", "delivery", "last"] },
  "school-enrollment": { visited: ["family", "enrolment", "transport", "consents"] },
  "school-enrollment:one-child": { visited: ["family", "enrolment", "consents"] },
  "sports-club-membership": { visited: ["person", "membership", "confirm"] },
  "sports-club-membership:non-swimmer": { visited: ["person", "membership"], stopped: true },
  "sports-club-membership:youth": { visited: ["person", "membership", "guardian", "confirm"] },
  "store-visit": { visited: ["visit", "stock", "close"] },
  "store-visit:closed": { visited: ["visit"] },
  "support-ticket": { visited: ["order", "items", "resolution"] },
  "support-ticket:bad-order-number": { visited: ["order"], stopped: true },
  "support-ticket:other-problem": { visited: ["order", "resolution"] },
  "team-offsite": { visited: ["team", "people", "programme"] },
  "team-offsite:solo": { visited: ["team", "people", "programme"] },
  "travel-booking": { visited: ["trip", "rail", "hotel", "traveller"] },
  "travel-booking:oneway": { visited: ["trip", "rail", "hotel", "traveller"] },
  "volunteer-signup": { visited: ["you", "helping", "availability", "finish"] },
  "volunteer-signup:teen": { visited: ["you", "helping", "availability", "finish"] },
  "website-usability": { visited: ["visitTask", "ease", "improve"] },
  "website-usability:success": { visited: ["visitTask", "ease", "improve"] },
  "volunteer-signup-required-items": { visited: ["contact", "availability", "team", "thanks"] },
  "volunteer-signup-required-items:companion-without-age": { visited: ["contact", "availability", "team"], stopped: true },
  "volunteer-signup-required-items:empty-contact": { visited: ["contact"], stopped: true },
  "volunteer-signup-required-items:empty-slots": { visited: ["contact", "availability"], stopped: true },
  "volunteer-signup-required-items:no-phone": { visited: ["contact"], stopped: true },
  "workplace-ratings-dotted-rows": { visited: ["ratings"] },
  "workplace-ratings-dotted-rows:fine": { visited: ["ratings"] },
  "wedding-rsvp": { visited: ["reply", "party", "meals"] },
  "wedding-rsvp:decline": { visited: ["reply"] },
  "weekly-timesheet": { visited: ["week", "overtime", "submit"] },
  "weekly-timesheet:leave": { visited: ["week", "leave", "submit"] },
};

function fail(message) {
  process.stderr.write(`check.js: ${message}\n`);
  process.exit(2);
}

function surveyCore() {
  if (process.env.SURVEY_CORE_JS) return process.env.SURVEY_CORE_JS;
  const cache = process.env.SURVEYJS_CACHE || "/tmp/surveyjs-cache";
  return path.join(cache, "survey-core-3.0.4", "survey.core.min.js");
}

// The names of surveyjs.json's questions and panels, as differential.py collects them.
function questionNames(survey) {
  const names = new Set();
  const visit = (elements) => {
    for (const element of Array.isArray(elements) ? elements : []) {
      if (!element || typeof element !== "object") continue;
      // survey-core trims names and removes the first '|' (settings.itemValueSeparator)
      if (typeof element.name === "string") names.add(element.name.trim().replace("|", ""));
      // (an answer may be keyed by the valueName, as survey-core's data is)
      if (typeof element.valueName === "string") names.add(element.valueName.trim());
      visit(element.elements);
      visit(element.templateElements);
    }
  };
  for (const page of survey.pages || []) visit(page && page.elements);
  visit(survey.elements);
  visit(survey.questions);
  return names;
}

// Where `data` does not hold `given` (an answer script's value): members of objects are looked up
// by name (data may have more: expressions, comments, totals), arrays must have the same length.
function missing(given, data, where) {
  if (Array.isArray(given)) {
    if (!Array.isArray(data) || data.length !== given.length) return [where];
    return given.flatMap((item, index) => missing(item, data[index], `${where}[${index}]`));
  }
  if (given && typeof given === "object") {
    if (!data || typeof data !== "object" || Array.isArray(data)) return [where];
    return Object.keys(given).flatMap((key) =>
      Object.prototype.hasOwnProperty.call(data, key) ? missing(given[key], data[key], `${where}.${key}`) : [`${where}.${key}`]);
  }
  return given === data ? [] : [where];
}

function readJSON(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    fail(`${file}: ${error.message}`);
  }
}

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
const chosen = args.filter((arg) => arg !== "--verbose");
const core = surveyCore();
if (!fs.existsSync(core)) {
  fail(`${core} is missing: run \`python3 Tests/differential.py\` once (it downloads survey-core 3.0.4), ` +
    "or set SURVEY_CORE_JS=/path/to/survey.core.min.js");
}

const directories = fs.readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
for (const name of chosen) if (!directories.includes(name)) fail(`there is no case ${name} in ${CORPUS}`);

const runs = [];
const problems = new Map(); // run name -> [problem]
const note = (name, problem) => problems.set(name, (problems.get(name) || []).concat(problem));
for (const directory of directories.filter((name) => !chosen.length || chosen.includes(name))) {
  const folder = path.join(CORPUS, directory);
  const surveyFile = path.join(folder, "surveyjs.json");
  if (!fs.existsSync(surveyFile) || !fs.existsSync(path.join(folder, "answers.json"))) {
    fail(`${folder}: a case needs surveyjs.json and answers.json`);
  }
  const names = questionNames(readJSON(surveyFile));
  const scripts = ["answers.json"].concat(
    fs.readdirSync(folder).filter((file) => /^answers-.+\.json$/.test(file)).sort());
  for (const script of scripts) {
    const name = script === "answers.json" ? directory : `${directory}:${script.slice(8, -5)}`;
    const answers = readJSON(path.join(folder, script));
    for (const key of Object.keys(answers)) {
      const base = key.endsWith("-Comment") ? key.slice(0, -8) : key;
      if (!names.has(base)) note(name, `${script}: '${key}' names no question of surveyjs.json`);
    }
    if (!EXPECTED[name]) note(name, "no entry in EXPECTED (check.js)");
    runs.push({ name, surveyjs: surveyFile, answers: path.join(folder, script), given: answers });
  }
}

const peer = spawnSync(process.env.NODE || process.execPath, [PEER, core], {
  input: JSON.stringify(runs.map(({ name, surveyjs, answers }) => ({ name, surveyjs, answers }))),
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
if (peer.error) fail(`cannot run ${PEER}: ${peer.error.message}`);
if (peer.status !== 0) fail(`${PEER} exited with ${peer.status}: ${peer.stderr.trim()}`);
const results = peer.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
if (results.length !== runs.length) fail(`${PEER} answered ${results.length} of ${runs.length} runs`);

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const given = new Map(runs.map((run) => [run.name, run.given]));
let completed = 0;
let stopped = 0;
const width = Math.max(...runs.map((run) => run.name.length)) + 2;
for (const result of results) {
  const name = result.name;
  let line;
  if (!result.ok) {
    note(name, `survey-core failed: ${result.error.split("\n")[0]}`);
    line = "BROKEN";
  } else {
    for (const warning of result.warnings) note(name, `survey-core warning: ${warning}`);
    for (const error of result.jsonErrors) note(name, `jsonError: ${error}`);
    if (result.unused.length) note(name, `answers never used: ${result.unused.join(", ")}`);
    const lost = Object.keys(given.get(name)).filter((key) => !result.unused.includes(key))
      .flatMap((key) => missing(given.get(name)[key], (result.data || {})[key], key));
    // A run that stops on purpose may stop on an answer survey-core refuses to store (a date in a
    // dynamic panel before its minValueExpression stays in the question, out of survey.data).
    const stopsOnPurpose = EXPECTED[name] && EXPECTED[name].stopped && !result.completed;
    if (lost.length && !stopsOnPurpose) note(name, `answers not kept as given in survey.data: ${lost.join(", ")}`);
    const expected = EXPECTED[name];
    if (expected) {
      if (Boolean(expected.stopped) === result.completed) {
        note(name, expected.stopped ? "completed, but it is expected to stop" : `did not complete (${result.state})`);
      }
      if (!same(expected.visited, result.visited)) {
        note(name, `visited ${result.visited.join(" > ")}; expected ${expected.visited.join(" > ")}`);
      }
    }
    const count = `${result.visited.length} page${result.visited.length === 1 ? "" : "s"}`;
    if (result.completed) {
      completed += 1;
      line = `completed, ${count}`;
    } else {
      stopped += 1;
      const why = result.blocked
        ? `stopped on ${result.blocked.page} (${result.blocked.errors.map((error) => error.name).join(", ")})`
        : `stopped (${result.state})`;
      line = `${why}, ${count}`;
    }
  }
  const bad = problems.get(name) || [];
  process.stdout.write(`${name.padEnd(width)}${bad.length ? "BAD " : ""}${line}\n`);
  for (const problem of bad) process.stdout.write(`${" ".repeat(width)}  ${problem}\n`);
  if (verbose && result.ok) {
    process.stdout.write(`${" ".repeat(width)}  pages: ${result.visited.join(" > ")}\n`);
    process.stdout.write(`${" ".repeat(width)}  data: ${JSON.stringify(result.data)}\n`);
  }
}
let bad = results.filter((result) => problems.has(result.name)).length;
if (!chosen.length) {
  for (const name of Object.keys(EXPECTED).filter((name) => !runs.some((run) => run.name === name))) {
    process.stdout.write(`${name.padEnd(width)}BAD EXPECTED names a run that does not exist\n`);
    bad += 1;
  }
}
const surveys = new Set(results.map((result) => result.name.split(":")[0])).size;
process.stdout.write(`${surveys} surveys, ${results.length} runs: ${completed} completed, ${stopped} stopped; ` +
  `${bad} bad (survey-core ${results[0] && results[0].version || "?"})\n`);
process.exit(bad ? 1 : 0);
