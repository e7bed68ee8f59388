#!/usr/bin/env node
// Seeded random respondents answering inside survey-core (headless).
//
//   node respondent.js SURVEY_CORE_JS < jobs.json > results.jsonl
//
// stdin: [{"name", "surveyjs": PATH, "seeds": [1,2,…], "out": DIR}]. For each survey:
//   * `new Survey.Model(json)`; a throw is reported as {"name", "load": "refused", "error"}.
//   * otherwise {"name", "load": "ok", "jsonErrors", "warnings", "pages", "questions", "runs": [...]}
//     and for each seed DIR/answers-<seed>.json is written: the answer script, {questionName: value,
//     NAME-Comment: text}, in the map format Tests/differential.py plays (page by page, top to bottom,
//     each visible question with an entry gets `question.value = answer`).
// The walk: on the current page, passes top to bottom; every question visible at that moment and not
// yet decided is answered with a random value valid for its type (or, when not required, left empty
// one time in five); passes repeat while something was decided (a visibleIf may look further down the
// page). Then nextPage()/completeLastPage(); when survey-core refuses (validation), the questions with
// errors get a new value (up to 6 tries per page), else the walk stops there. The script written is
// then replayed by peer.js in the comparison, so what counts is the script, not this walk.
"use strict";
const fs = require("fs");
const path = require("path");

const Survey = require(path.resolve(process.argv[2]));
let warnings = [];
for (const m of ["warn", "error", "log"]) console[m] = (...p) => warnings.push(p.map(String).join(" ").slice(0, 300));


// A file a respondent can pick in survey-core's UI: its file input's `accept` (acceptedTypes) filters
// the browser's picker, so the file is of the first accepted type (an extension, or a MIME type).
function fileFor(q) {
  const accepted = String(q.acceptedTypes || "").split(",").map((t) => t.trim().toLowerCase()).filter(Boolean)[0];
  const byMime = { "application/pdf": "pdf", "text/csv": "csv", "text/plain": "txt", "audio/*": "mp3", "video/*": "mp4" };
  let ext = "png";
  let type = "image/png";
  if (accepted && accepted.startsWith(".")) {
    ext = accepted.slice(1);
    type = ext === "png" ? "image/png" : "application/octet-stream";
  } else if (accepted && !accepted.startsWith("image/") && byMime[accepted]) {
    ext = byMime[accepted];
    type = accepted.endsWith("/*") ? accepted.replace("*", ext) : accepted;
  }
  return { name: `file.${ext}`, type, content: `https://example.com/file.${ext}` };
}

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeGen(rand) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const WORDS = ["alpha", "river", "green", "house", "quick", "seven", "paper", "light", "stone", "cloud"];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const num = (v, d) => (v === undefined || v === null || v === "" || isNaN(Number(v)) ? d : Number(v));
  const pad = (n) => String(n).padStart(2, "0");
  const dateBetween = (min, max) => {
    const lo = min ? Date.parse(min) : Date.parse("1950-01-01");
    const hi = max ? Date.parse(max) : Date.parse("2024-12-31");
    if (isNaN(lo) || isNaN(hi) || hi < lo) return "2000-06-15";
    const d = new Date(lo + Math.floor(rand() * (hi - lo)));
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  };
  function validatorsOf(q) { return (q.validators || []).map((v) => ({ type: v.getType ? v.getType() : v.type, v })); }
  function numberFor(q) {
    let lo = num(q.min, 0), hi = num(q.max, Math.max(lo + 100, 10));
    for (const { type, v } of validatorsOf(q)) if (type === "numericvalidator") { lo = num(v.minValue, lo); hi = num(v.maxValue, hi); }
    if (hi < lo) hi = lo;
    const step = num(q.step, 1) || 1;
    const k = Math.floor((hi - lo) / step);
    const r = lo + step * int(0, Math.max(0, Math.min(k, 1e6)));
    return Math.round(r * 1e6) / 1e6;
  }
  function fromMask(pattern) {
    return pattern.replace(/[9a#*]/g, (c) => (c === "9" ? String(int(0, 9)) : c === "a" ? pick("abcdefgh".split("")) : String(int(0, 9))));
  }
  function textFor(q) {
    const it = q.inputType || "text";
    const ms = q.maskType;
    if (ms === "numeric" || ms === "currency") return numberFor(q);
    if (ms === "pattern" && q.maskSettings && q.maskSettings.pattern) return fromMask(q.maskSettings.pattern);
    if (ms === "datetime") return dateBetween(q.min, q.max);
    if (it === "number" || it === "range") return numberFor(q);
    if (it === "date") return dateBetween(q.min, q.max);
    if (it === "email") return `user${int(1, 999)}@example.com`;
    if (it === "tel") return `555-01${pad(int(0, 99))}`;
    if (it === "url") return "https://example.com/page";
    if (it === "color") return pick(["#336699", "#ff0000", "#00aa00"]);
    if (it === "time") return `${pad(int(0, 23))}:${pad(int(0, 59))}`;
    if (it === "month") return `20${pad(int(10, 24))}-${pad(int(1, 12))}`;
    if (it === "week") return `2024-W${pad(int(1, 52))}`;
    if (it === "datetime-local") return `${dateBetween(q.min, q.max)}T${pad(int(0, 23))}:${pad(int(0, 59))}`;
    if (it === "password") return "secret" + int(100, 999);
    let s = words(int(1, 3));
    let minL = 0, maxL = q.maxLength > 0 ? q.maxLength : 1e9;
    const vs = validatorsOf(q);
    for (const { type, v } of vs) {
      if (type === "textvalidator") { minL = Math.max(minL, num(v.minLength, 0)); if (num(v.maxLength, 0) > 0) maxL = Math.min(maxL, v.maxLength); }
      if (type === "emailvalidator") return `user${int(1, 999)}@example.com`;
      if (type === "numericvalidator") return String(numberFor(q));
    }
    for (const { type, v } of vs) {
      if (type === "regexvalidator" && v.regex) {
        let re; try { re = new RegExp(v.regex); } catch (e) { break; }
        const tries = [s, "12345", String(int(10000, 99999)), "1234567890", "A1B2C3", "abc", "ABC", `user${int(1, 99)}@example.com`,
          "2024-01-01", "123456789", "1234", "+1 555 0100", "5550100", "12", "1", "a", "Abc123!x", "https://example.com", "AB123456", "12345678901"];
        const ok = tries.find((t) => re.test(t));
        if (ok !== undefined) return ok;
      }
    }
    while (s.length < minL) s += " " + pick(WORDS);
    if (s.length > maxL) s = s.slice(0, Math.max(maxL, 1));
    return s;
  }
  const itemValue = (it) => (it && typeof it === "object" && "value" in it ? it.value : it);
  function choicesOf(q) { return (q.visibleChoices || q.choices || []).filter((c) => c.isVisible !== false && c.isEnabled !== false); }
  function singleChoice(q, out) {
    const cs = choicesOf(q).filter((c) => !(q.isNoneItem && false));
    if (!cs.length) return undefined;
    const c = pick(cs);
    const v = itemValue(c);
    if (q.showOtherItem && q.otherItem && v === q.otherItem.value) out.comment = words(2);
    return v;
  }
  function multiChoice(q, out) {
    let cs = choicesOf(q).filter((c) => !(q.selectAllItem && itemValue(c) === itemValue(q.selectAllItem)));
    const noneV = q.noneItem ? itemValue(q.noneItem) : undefined;
    const others = (q.showOtherItem && q.otherItem ? [itemValue(q.otherItem)] : []);
    const minS = num(q.minSelectedChoices, 0), maxS = num(q.maxSelectedChoices, 0) || cs.length;
    for (const { type, v } of validatorsOf(q)) if (type === "answercountvalidator") { /* respected below */ }
    if (noneV !== undefined && cs.some((c) => itemValue(c) === noneV) && rand() < 0.12 && minS <= 1) return [noneV];
    cs = cs.filter((c) => itemValue(c) !== noneV && !(q.showNoneItem && c.isNone));
    if (!cs.length) return undefined;
    let lo = Math.max(1, minS), hi = Math.min(maxS, cs.length);
    for (const { type, v } of validatorsOf(q)) if (type === "answercountvalidator") { lo = Math.max(lo, num(v.minCount, lo)); hi = Math.min(hi, num(v.maxCount, hi) || hi); }
    if (hi < lo) hi = lo;
    const n = int(lo, Math.min(hi, Math.max(lo, 3)));
    const shuffled = cs.slice().sort(() => rand() - 0.5).slice(0, n);
    const order = new Map(cs.map((c, i) => [c, i]));
    shuffled.sort((a, b) => order.get(a) - order.get(b));
    const vals = shuffled.map(itemValue);
    if (others.length && vals.includes(others[0])) out.comment = words(2);
    return vals;
  }
  function ratingValue(q) {
    const rv = q.visibleRateValues || q.rateValues || [];
    if (rv.length) return itemValue(pick(rv));
    const lo = num(q.rateMin, 1), hi = num(q.rateMax, 5), st = num(q.rateStep, 1) || 1;
    return lo + st * int(0, Math.floor((hi - lo) / st));
  }
  function matrixValue(q) {
    const rows = q.visibleRows || q.rows || [];
    const cols = (q.visibleColumns || q.columns || []).map(itemValue);
    // No row shown (every row's visibleIf false): nothing a respondent can answer.
    if (!cols.length || !rows.length) return undefined;
    const v = {};
    for (const r of rows) {
      const rn = r.name !== undefined ? r.name : itemValue(r);
      if (!q.isAllRowRequired && !q.eachRowRequired && rand() < 0.15) continue;
      v[rn] = pick(cols);
    }
    return Object.keys(v).length ? v : { [rows[0] && (rows[0].name !== undefined ? rows[0].name : itemValue(rows[0]))]: pick(cols) };
  }
  function cellValue(col, q) {
    const t = col.templateQuestion || null;
    const out = {};
    if (t) {
      const v = valueFor(t, out, true);
      return v;
    }
    return words(1);
  }
  function rowObject(q) {
    const o = {};
    for (const col of q.visibleColumns || q.columns || []) {
      if (col.isVisible === false) continue;
      const ct = col.cellType === "default" || !col.cellType ? q.cellType : col.cellType;
      if (ct === "expression") continue;
      if (!col.isRequired && rand() < 0.2) continue;
      const v = cellValue(col, q);
      if (v !== undefined) o[col.name] = v;
    }
    return o;
  }
  function matrixDropdownValue(q) {
    const v = {};
    for (const r of q.visibleRows || []) {
      const o = rowObject(q);
      if (Object.keys(o).length) v[r.rowName !== undefined ? r.rowName : r.name] = o;
    }
    return Object.keys(v).length ? v : undefined;
  }
  function dynamicCount(min, max) {
    const lo = num(min, 0), hi = Math.max(lo, Math.min(num(max, 2) || 2, Math.max(lo, 2)));
    return int(lo, hi);
  }
  function matrixDynamicValue(q) {
    const n = dynamicCount(q.minRowCount, q.maxRowCount);
    if (n === 0) return undefined;
    return Array.from({ length: n }, () => rowObject(q));
  }
  function panelDynamicValue(q) {
    const n = dynamicCount(q.minPanelCount, q.maxPanelCount);
    if (n === 0) return undefined;
    const tq = (q.template && q.template.questions) || [];
    return Array.from({ length: n }, () => {
      const o = {};
      for (const t of tq) {
        if (t.isReadOnly) continue;
        if (!t.isRequired && rand() < 0.2) continue;
        const out = {};
        const v = valueFor(t, out, true);
        if (v !== undefined) o[t.getValueName ? t.getValueName() : t.name] = v;
        if (out.comment !== undefined) o[(t.getValueName ? t.getValueName() : t.name) + "-Comment"] = out.comment;
      }
      return o;
    });
  }
  function multipleTextValue(q) {
    const o = {};
    for (const item of q.items || []) {
      if (!item.isRequired && rand() < 0.2) continue;
      const e = item.editor || item;
      o[item.name] = textFor(e);
    }
    return Object.keys(o).length ? o : undefined;
  }
  function valueFor(q, out, inner) {
    const t = q.getType();
    switch (t) {
      case "text": return textFor(q);
      case "comment": return words(int(2, 6));
      case "radiogroup": case "dropdown": case "buttongroup": return singleChoice(q, out);
      case "checkbox": case "tagbox": return multiChoice(q, out);
      case "imagepicker": return q.multiSelect ? multiChoice(q, out) : singleChoice(q, out);
      case "boolean": {
        const vt = q.valueTrue !== undefined ? q.valueTrue : true;
        const vf = q.valueFalse !== undefined ? q.valueFalse : false;
        return rand() < 0.5 ? vt : vf;
      }
      case "rating": return ratingValue(q);
      case "ranking": {
        const cs = choicesOf(q).map(itemValue);
        return cs.length ? cs.slice().sort(() => rand() - 0.5) : undefined;
      }
      case "slider": {
        if (q.sliderType !== "range") return numberFor(q);
        // Two thumbs: [low, high], as far apart as minRangeLength/maxRangeLength let them be.
        const pair = [numberFor(q), numberFor(q)].sort((a, b) => a - b);
        const least = num(q.minRangeLength, 0), most = num(q.maxRangeLength, Infinity);
        if (pair[1] - pair[0] < least || pair[1] - pair[0] > most) return [pair[0], pair[0] + Math.max(least, 0)].map((v) => Math.min(v, num(q.max, 100)));
        return pair;
      }
      case "matrix": return matrixValue(q);
      case "matrixdropdown": return matrixDropdownValue(q);
      case "matrixdynamic": return matrixDynamicValue(q);
      case "paneldynamic": return panelDynamicValue(q);
      case "multipletext": return multipleTextValue(q);
      case "file": return q.isRequired ? [fileFor(q)] : undefined;
      case "signaturepad": return q.isRequired ? "data:image/png;base64,iVBORw0KGgo=" : undefined;
      default: return undefined; // html, image, expression, custom types
    }
  }
  return { valueFor, rand };
}

function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    const r = {};
    for (const k of Object.keys(value).sort()) r[k] = sorted(value[k]);
    return r;
  }
  return value;
}

function innerErrors(q) {
  const t = q.getType();
  const qs = [];
  if (t === "matrixdropdown" || t === "matrixdynamic") for (const r of q.visibleRows || []) for (const c of r.cells || []) if (c.question) qs.push(c.question);
  if (t === "paneldynamic") for (const p of q.panels || []) qs.push(...(p.questions || []));
  if (t === "multipletext") for (const it of q.items || []) if (it.editor) qs.push(it.editor);
  return qs.some((x) => (x.errors || []).length);
}

const NO_VALUE = new Set(["html", "image", "expression"]);

function walk(json, seed, name) {
  let h = 2166136261;
  for (const ch of `${seed}:${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  const rng = mulberry32(h >>> 0);
  for (let i = 0; i < 5; i++) rng();
  const g = makeGen(rng);
  const survey = new Survey.Model(json);
  const answers = {};
  const decided = new Set();
  const visited = [];
  let blocked = null;
  // With questionsOnPageMode "questionPerPage" each question is a visit of its own.
  const maxVisits = Math.max(survey.pages.length, survey.getAllQuestions().length) * 2 + 10;
  const answer = (q) => {
    // Keyed as survey-core's data is: by the valueName when the question has one; a question that
    // shares its key with one already answered shows that answer and is left as it is.
    const key = q.getValueName ? q.getValueName() : q.name;
    if (Object.prototype.hasOwnProperty.call(answers, key)) return false;
    const out = {};
    const v = g.valueFor(q, out);
    if (v === undefined) return false;
    q.value = v;
    answers[key] = JSON.parse(JSON.stringify(v));
    if (out.comment !== undefined) { q.comment = out.comment; answers[key + "-Comment"] = out.comment; }
    return true;
  };
  while ((survey.state === "running" || survey.state === "starting") && visited.length < maxVisits) {
    const starting = survey.state === "starting";
    const page = starting ? (survey.startedPage || survey.pages[0]) : survey.currentPage;
    if (!page) break;
    visited.push(page.name);
    let moved = false;
    for (let pass = 0; pass < 100 && !moved; pass++) {
      let changed = false;
      for (const q of page.questions) {
        if (decided.has(q.name) || !q.isVisibleInSurvey) continue;
        decided.add(q.name);
        changed = true;
        if (q.isReadOnly || NO_VALUE.has(q.getType())) continue;
        if (!q.isRequired && g.rand() < 0.2) continue;
        answer(q);
        if (!starting && (survey.state !== "running" || survey.currentPage !== page)) { moved = true; break; }
      }
      if (!changed) break;
    }
    if (moved) continue;
    let ok = false;
    for (let attempt = 0; attempt < 7; attempt++) {
      ok = starting ? survey.start() : survey.isLastPage ? survey.completeLastPage() : survey.nextPage();
      if (ok || attempt === 6) break;
      const bad = page.questions.filter((q) => ((q.errors || []).length || innerErrors(q)) && q.isVisibleInSurvey);
      if (!bad.length) break;
      for (const q of bad) answer(q);
    }
    if (!ok) {
      const errors = [];
      for (const q of page.questions) if (innerErrors(q)) errors.push({ name: q.name, error: "(inside the matrix/panel)" });
      for (const q of page.questions) for (const e of q.errors || []) errors.push({ name: q.name, error: e.getText ? e.getText() : String(e.text) });
      blocked = { page: page.name, errors };
      break;
    }
    if (survey.state === "preview") survey.completeLastPage();
  }
  return { seed, completed: survey.state === "completed", state: survey.state, visited, blocked, answers, data: sorted(survey.data) };
}

const jobs = JSON.parse(fs.readFileSync(0, "utf8"));
for (const job of jobs) {
  let json;
  try { json = JSON.parse(fs.readFileSync(job.surveyjs, "utf8")); } catch (e) { process.stdout.write(JSON.stringify({ name: job.name, load: "unreadable", error: String(e) }) + "\n"); continue; }
  warnings = [];
  let survey;
  try { survey = new Survey.Model(json); } catch (e) {
    process.stdout.write(JSON.stringify({ name: job.name, load: "refused", error: String(e && e.message || e) }) + "\n");
    continue;
  }
  const info = {
    name: job.name, load: "ok",
    jsonErrors: (survey.jsonErrors || []).map((e) => e.message || String(e)),
    warnings: [...new Set(warnings)],
    pages: survey.pages.length,
    questions: survey.getAllQuestions(false, false, true).length,
    runs: [],
  };
  for (const seed of job.seeds) {
    warnings = [];
    let r;
    try { r = walk(json, seed, job.name); } catch (e) { r = { seed, error: String(e && e.stack || e).slice(0, 500) }; }
    if (r.answers) {
      fs.mkdirSync(job.out, { recursive: true });
      fs.writeFileSync(path.join(job.out, `answers-${seed}.json`), JSON.stringify(r.answers, null, 1));
    }
    info.runs.push({ seed: r.seed, completed: r.completed, visited: r.visited, blocked: r.blocked, error: r.error, answered: r.answers ? Object.keys(r.answers).length : 0 });
  }
  process.stdout.write(JSON.stringify(info) + "\n");
}
