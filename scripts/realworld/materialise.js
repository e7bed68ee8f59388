#!/usr/bin/env node
// Re-materialise one SurveyJS survey from a repository file, as scripts/realworld/scan.js took it out.
//
//   node materialise.js GITDIR COMMIT PATH EXTRACTED            -> survey JSON on stdout
//   node materialise.js --file LOCALFILE - PATH EXTRACTED        -> same, file content from disk
//   (optional last argument NAME: the row's name, used only to choose among several surveys nested
//    in one .json file, by title)
//   node materialise.js --tsv LIST.tsv OUTROOT [--mirror DIR] [--only NAME]...
//        -> OUTROOT/corpus/<name>/surveyjs.json + SOURCE.txt for each row (GITDIR of a row =
//           MIRROR/<owner>+<name>/repo, MIRROR defaults to /work/.mirror); prints one status line
//           per row and a summary; exit 1 if any row failed.
//
// EXTRACTED is the row's `extracted` column:
//   "JSON file ..."                         the file is the survey: JSON.parse (BOM stripped), else
//                                           evaluated with node's vm as scan.js does.
//   "object literal at character offset N"  text[N] (JS string index of the UTF-8-decoded file, BOM
//                                           kept, exactly as scan.js's Buffer.toString()) is the '{'
//                                           of the literal; its end is found by scan.js's
//                                           matchForward; evaluated with vm; re-serialised as JSON.
//   "...(a, b, c) stubbed with placeholder strings"
//                                           the names in the parenthesis are defined in the vm context
//                                           as placeholder values (see makeStub) before evaluating.
// No npm packages.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs"), path = require("path"), vm = require("vm");

// The same reading of literals as scan.js.
const { looksLikeSurvey, matchForward } = require("./literals.js");

// A stub for a value defined outside the literal (e.g. an array of image links, `activity_[0]`):
// indexing or property access gives the placeholder string "placeholder:NAME[KEY]"; the stub itself,
// used as a value, serialises / converts to "placeholder:NAME".
function makeStub(name) {
  const label = `placeholder:${name}`;
  return new Proxy(Object.create(null), {
    get(t, k) {
      if (k === Symbol.toPrimitive) return () => label;
      if (k === "toJSON" || k === "toString" || k === "valueOf") return () => label;
      if (typeof k === "symbol") return undefined;
      return `${label}[${String(k)}]`;
    },
  });
}

function readBlob(gitdir, commit, file) {
  // Same decoding as scan.js: Buffer -> toString() (UTF-8, BOM kept, invalid bytes -> U+FFFD).
  return execFileSync("git", ["--git-dir=" + gitdir, "cat-file", "blob", `${commit}:${file}`],
    { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] }).toString();
}

function evaluate(src, stubs) {
  const ctx = Object.create(null);
  for (const n of stubs) ctx[n] = makeStub(n);
  const o = vm.runInNewContext("(" + src + ")", ctx, { timeout: 5000 });
  return JSON.parse(JSON.stringify(o));
}

// Returns { survey, notes: [..] } or throws.
function extract(text, extracted, name) {
  const notes = [];
  let stubs = [];
  const sm = extracted.match(/\(([^()]*)\)\s*stubbed/);
  if (sm) { stubs = sm[1].split(",").map((s) => s.trim()).filter(Boolean); notes.push(`stubbed: ${stubs.join(", ")}`); }
  const known = /^(JSON file|object literal at character offset \d+)\s*(\(evaluated with node, re-serialised as JSON\))?\s*(;.*stubbed with placeholder strings\s*)?$/;
  if (!known.test(extracted.trim())) notes.push(`unrecognised extracted text, best effort: ${extracted}`);
  let survey;
  if (/^JSON file/.test(extracted)) {
    const body = text.replace(/^\uFEFF/, "");
    try { survey = JSON.parse(body); } catch (e) { survey = evaluate(body, stubs); notes.push("JSON.parse failed, evaluated with vm"); }
    if (!looksLikeSurvey(survey) && survey && typeof survey === "object") {
      // scan.js also accepted a survey one or two levels inside a .json file; take the first.
      const cands = [];
      for (const v of Object.values(survey)) { cands.push(v); if (Array.isArray(v)) cands.push(...v); else if (v && typeof v === "object") cands.push(...Object.values(v)); }
      const inner = cands.filter(looksLikeSurvey);
      // Several: the one whose title (slugified) occurs in the row's name, else the first.
      const slug = (t) => String(t || "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
      const byName = name ? inner.filter((s) => { const t = slug(typeof s.title === "object" ? s.title.default || Object.values(s.title)[0] : s.title); return t && name.includes(t); }) : [];
      if (inner.length === 1) { survey = inner[0]; notes.push("whole file is not a survey; took the nested survey"); }
      else if (byName.length === 1) { survey = byName[0]; notes.push(`whole file is not a survey; took nested survey ${inner.indexOf(byName[0])} of ${inner.length} (title matches row name)`); }
      else if (inner.length) { survey = inner[0]; notes.push(`whole file is not a survey; took first nested survey of ${inner.length} (AMBIGUOUS)`); }
      else notes.push("file does not look like a survey (kept whole)");
    }
  } else {
    const m = extracted.match(/character offset (\d+)/);
    if (!m) throw new Error(`cannot interpret extracted: ${extracted}`);
    const at = +m[1];
    if (text[at] !== "{") throw new Error(`character at offset ${at} is ${JSON.stringify(text.slice(at, at + 20))}, not '{'`);
    const end = matchForward(text, at);
    if (end < 0) throw new Error(`no matching end for literal at ${at}`);
    survey = evaluate(text.slice(at, end + 1), stubs);
    if (!looksLikeSurvey(survey)) notes.push("literal does not look like a survey");
  }
  return { survey, notes };
}

function readTsv(file) {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
  const head = lines[0].split("\t");
  return lines.slice(1).map((l) => { const c = l.split("\t"); const r = {}; head.forEach((h, i) => (r[h] = c[i] ?? "")); return r; });
}

function main(argv) {
  if (argv[0] === "--tsv") {
    const [, tsv, outroot, ...rest] = argv;
    let mirror = "/work/.mirror"; const only = new Set();
    for (let i = 0; i < rest.length; i++) { if (rest[i] === "--mirror") mirror = rest[++i]; else if (rest[i] === "--only") only.add(rest[++i]); }
    const rows = readTsv(tsv).filter((r) => !only.size || only.has(r.name));
    let ok = 0; const failed = [];
    for (const r of rows) {
      const repo = r.repository.replace(/^https:\/\/github\.com\//, "").replace(/\/$/, "");
      let gitdir = path.join(mirror, repo.replace("/", "+"), "repo");
      if (!fs.existsSync(path.join(gitdir, "HEAD")) && fs.existsSync(path.join(gitdir, ".git"))) gitdir = path.join(gitdir, ".git");
      try {
        if (!fs.existsSync(gitdir)) throw new Error(`no mirror ${gitdir}`);
        let text;
        try { text = readBlob(gitdir, r.commit, r.path); }
        catch (e) { throw new Error(`git: ${String(e.stderr || e.message).trim().split("\n")[0]}`); }
        const { survey, notes } = extract(text, r.extracted, r.name);
        const dir = path.join(outroot, "corpus", r.name);
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, "surveyjs.json"), JSON.stringify(survey, null, 2) + "\n");
        let src = `repository: ${r.repository}\npath: ${r.path}\ncommit: ${r.commit}\nextracted: ${r.extracted}\n`;
        if (r.licence) src += `licence: ${r.licence}\n`;
        fs.writeFileSync(path.join(dir, "SOURCE.txt"), src);
        ok++;
        console.log(`ok\t${r.name}${notes.length ? "\tNOTE " + notes.join("; ") : ""}`);
      } catch (e) {
        failed.push(r.name);
        console.log(`FAIL\t${r.name}\t${repo}\t${e.message}`);
      }
    }
    console.log(`# ${ok} of ${rows.length} materialised, ${failed.length} failed${failed.length ? ": " + failed.join(" ") : ""}`);
    return failed.length ? 1 : 0;
  }
  let text;
  if (argv[0] === "--file") { text = fs.readFileSync(argv[1]).toString(); argv = [null, null, argv[3], argv[4], argv[5]]; }
  const [gitdir, commit, file, extracted, name] = argv;
  if (!extracted) { console.error("usage: materialise.js GITDIR COMMIT PATH EXTRACTED | --file LOCALFILE - PATH EXTRACTED | --tsv LIST OUTROOT"); return 2; }
  if (text === undefined) text = readBlob(gitdir, commit, file);
  const { survey, notes } = extract(text, extracted, name);
  for (const n of notes) console.error(`note: ${n}`);
  process.stdout.write(JSON.stringify(survey, null, 2) + "\n");
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
module.exports = { extract, matchForward, looksLikeSurvey, readBlob };
