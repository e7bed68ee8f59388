#!/usr/bin/env node
// The SurveyJS side of the differential suite (Tests/differential.py): plays each case's answers
// through survey-core as a respondent would and reports where it went and what it kept.
//
//   node peer.js SURVEY_CORE_JS < cases.json
//
// stdin is a JSON array of {"name", "surveyjs": PATH, "answers": PATH}. stdout gets one JSON line
// per case, in order:
//   {"name", "ok": true, "version", "state", "completed", "visited": [page names],
//    "blocked": null | {"page", "errors": [{"name", "error"}]}, "data": survey.data, "unused": [keys],
//    "warnings": [what survey-core warned about, e.g. "Invalid expression: …"],
//    "jsonErrors": [what survey-core could not read in the survey JSON, e.g. an unknown property]}
//   {"name", "ok": false, "error": "what went wrong"}
//
// A walk, page by page, as the engine's own `survey test` does with a map script:
// * new Survey.Model(json); a start page (firstPageIsStartPage) is started.
// * On the current page, top to bottom, every question visible at that moment
//   (question.isVisibleInSurvey) that has an answer gets `question.value = answer`, once (a
//   dynamic panel is filled panel by panel, see fillDynamicPanel);
//   `NAME-Comment` in the answers goes to `question.comment` (the "Other" text, or a comment).
//   Passes repeat while one set something: a visibleIf may look at a later question of the page.
// * Then nextPage(), or completeLastPage() on the last visible page. survey-core skips invisible
//   pages itself and honours complete triggers; a refusal (validation) ends the walk as blocked.
//   When an answer moves the survey by itself (a skip trigger jumps as soon as its value is set),
//   the rest of that page is left as it is and the walk goes on from wherever survey-core went.
// * survey.data is read after completion, so clearInvisibleValues ("onComplete" by default) has
//   already dropped the values of questions that are invisible by then.
// survey-core does not reject what it cannot use: an expression it cannot parse only logs a warning
// (and a visibleIf it cannot run shows the element), an unknown property only lands in
// survey.jsonErrors. Both are reported, so that a case never compares against a silent fallback.
"use strict";
const fs = require("fs");
const path = require("path");

const EXPECTED_VERSION = "3.0.4";

function fail(message) {
  process.stderr.write(`peer.js: ${message}\n`);
  process.exit(2);
}

if (process.argv.length !== 3) fail("usage: node peer.js SURVEY_CORE_JS < cases.json");
const Survey = require(path.resolve(process.argv[2]));
if (!Survey || typeof Survey.Model !== "function") fail(`${process.argv[2]} does not export Survey.Model`);
if (Survey.Version !== EXPECTED_VERSION) {
  fail(`${process.argv[2]} is survey-core ${Survey.Version}, expected ${EXPECTED_VERSION}`);
}

function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    const result = {};
    for (const key of Object.keys(value).sort()) result[key] = sorted(value[key]);
    return result;
  }
  return value;
}

function readJSON(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

// survey-core's console warnings, collected per case.
let warnings = [];
for (const method of ["warn", "error"]) {
  console[method] = (...parts) => warnings.push(parts.map(String).join(" "));
}

// A dynamic panel is filled as a respondent fills it: panels added (or removed) to the answer's
// count, then each panel's questions answered top to bottom while visible, so that survey-core runs
// the template's expressions, defaults and conditions as it does in its UI (setting the whole array
// at once skips them). A key no panel question takes is kept by setting it on the panel's value.
function fillDynamicPanel(question, entries) {
  const allowed = (n) => n >= (question.minPanelCount || 0) && (!question.maxPanelCount || n <= question.maxPanelCount);
  // (each loop stops when survey-core does not add or remove a panel: a count bound, a binding)
  for (let before = -1; question.panelCount < entries.length && allowed(question.panelCount + 1) && before !== question.panelCount;) {
    before = question.panelCount;
    question.addPanel();
  }
  for (let before = -1; question.panelCount > entries.length && question.panelCount > (question.minPanelCount || 0) && before !== question.panelCount;) {
    before = question.panelCount;
    question.removePanel(question.panelCount - 1);
  }
  if (question.panelCount !== entries.length) return false;
  const suffix = Survey.settings.commentSuffix || "-Comment";
  question.panels.forEach((panel, index) => {
    const entry = entries[index] || {};
    const used = new Set();
    for (let pass = 0; pass < 100; pass++) {
      let changed = false;
      for (const inner of panel.questions) {
        const key = inner.getValueName ? inner.getValueName() : inner.name;
        if (used.has(key) || !(key in entry) || entry[key] == null || !inner.isVisible) continue;
        inner.value = entry[key];
        used.add(key);
        if (entry[key + suffix] != null) {
          inner.comment = entry[key + suffix];
          used.add(key + suffix);
        }
        changed = true;
      }
      if (!changed) break;
    }
    const rest = Object.keys(entry).filter((key) => !used.has(key));
    if (rest.length) {
      const value = Object.assign({}, panel.getValue ? panel.getValue() : {});
      for (const key of rest) value[key] = entry[key];
      const all = (question.value || []).slice();
      all[index] = value;
      question.value = all;
    }
  });
  return true;
}

function answer(question, value) {
  if (question.getType && question.getType() === "paneldynamic" && Array.isArray(value)) {
    if (fillDynamicPanel(question, value)) return;
  }
  question.value = value;
}

function walk(surveyJSON, answers) {
  const given = (key) => Object.prototype.hasOwnProperty.call(answers, key) && answers[key] != null;
  const survey = new Survey.Model(surveyJSON);
  if (survey.state === "starting") survey.start();

  const used = new Set();
  const visited = [];
  let blocked = null;

  // Returns false when an answer made the survey leave the page by itself (a skip trigger, or a
  // complete trigger run on value change): then there is no Next to press.
  const answerPage = (page) => {
    for (let pass = 0; pass < 100; pass++) {
      let changed = false;
      for (const question of page.questions) {
        // Answers are keyed as survey-core's data is: by the question's valueName when it has one.
        const name = question.getValueName ? question.getValueName() : question.name;
        if (used.has(name) || !given(name) || !question.isVisibleInSurvey) continue;
        answer(question, answers[name]);
        used.add(name);
        const comment = `${name}${Survey.settings.commentSuffix || "-Comment"}`;
        if (given(comment)) {
          question.comment = answers[comment];
          used.add(comment);
        }
        if (survey.state !== "running" || survey.currentPage !== page) return false;
        changed = true;
      }
      if (!changed) return true;
    }
    return true;
  };

  // Pages are never revisited by this walk; the bound only guards against a survey-core surprise.
  // (With questionsOnPageMode "questionPerPage" each question is a visit of its own.)
  const maximumVisits = Math.max(survey.pages.length, survey.getAllQuestions().length) * 2 + 10;
  while (survey.state === "running" && visited.length < maximumVisits) {
    const page = survey.currentPage;
    if (!page) break;
    visited.push(page.name);
    if (!answerPage(page)) continue;
    const moved = survey.isLastPage ? survey.completeLastPage() : survey.nextPage();
    if (!moved) {
      const errors = [];
      // Questions' errors, then panels' (a required panel none of whose questions is answered), then
      // the page's own (a required page).
      const elements = page.questions.concat(typeof page.getPanels === "function" ? page.getPanels(false, true) : [], [page]);
      for (const element of elements) {
        for (const error of element.errors || []) {
          errors.push({ name: element.name, error: error.getText ? error.getText() : String(error.text) });
        }
        // A dynamic panel keeps its errors in its panels' questions.
        for (const panel of (element.getType && element.getType() === "paneldynamic" && element.panels) || []) {
          for (const inner of panel.questions || []) {
            // (a multiple text there keeps its items' errors in their editors)
            const items = (inner.getType && inner.getType() === "multipletext" && inner.items) || [];
            const innerErrors = (inner.errors || []).concat(...items.map((item) => (item.editor && item.editor.errors) || []));
            for (const error of innerErrors) {
              errors.push({ name: element.name, error: error.getText ? error.getText() : String(error.text) });
            }
          }
        }
        // A multiple text keeps an item's own errors (its validators') in the item's editor.
        for (const item of (element.getType && element.getType() === "multipletext" && element.items) || []) {
          for (const error of (item.editor && item.editor.errors) || []) {
            errors.push({ name: element.name, error: error.getText ? error.getText() : String(error.text) });
          }
        }
        // A matrix with a kind per column (matrixdropdown) keeps its errors in its cells' questions.
        for (const row of (element.getType && element.getType() === "matrixdropdown" && element.visibleRows) || []) {
          for (const cell of row.cells || []) {
            for (const error of (cell.question && cell.question.errors) || []) {
              errors.push({ name: element.name, error: error.getText ? error.getText() : String(error.text) });
            }
          }
        }
      }
      // A page blocked with no such error: the cause is in a dynamic matrix's cells (of rows the
      // script gave), which count as the matrix's own then (docs/differential.md).
      if (errors.length === 0) {
        for (const element of page.questions) {
          const valueName = element.getValueName ? element.getValueName() : element.name;
          if (!(element.getType && element.getType() === "matrixdynamic" && given(valueName))) continue;
          const cells = (element.visibleRows || []).flatMap((row) => row.cells || []);
          for (const cell of cells) {
            for (const error of (cell.question && cell.question.errors) || []) {
              errors.push({ name: element.name, error: error.getText ? error.getText() : String(error.text) });
            }
          }
        }
      }
      blocked = { page: page.name, errors };
      break;
    }
    if (survey.state === "preview") survey.completeLastPage();
  }

  return {
    version: Survey.Version,
    state: survey.state,
    completed: survey.state === "completed",
    visited,
    blocked,
    data: sorted(survey.data),
    unused: Object.keys(answers).filter((key) => !used.has(key)).sort(),
    warnings: [...new Set(warnings)],
    jsonErrors: (survey.jsonErrors || []).map((error) => error.message || String(error)),
  };
}

let cases;
try {
  cases = JSON.parse(fs.readFileSync(0, "utf8"));
} catch (error) {
  fail(`stdin is not a JSON array of cases: ${error.message}`);
}
for (const entry of cases) {
  let line;
  try {
    let surveyJSON, answers;
    try {
      surveyJSON = readJSON(entry.surveyjs);
    } catch (error) {
      throw new Error(`${entry.surveyjs}: ${error.message}`);
    }
    try {
      answers = readJSON(entry.answers);
    } catch (error) {
      throw new Error(`${entry.answers}: ${error.message}`);
    }
    warnings = [];
    line = { name: entry.name, ok: true, ...walk(surveyJSON, answers) };
  } catch (error) {
    line = { name: entry.name, ok: false, error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(line) + "\n");
}
