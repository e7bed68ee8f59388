#!/usr/bin/env node
// Scan a bare git dir (HEAD) for SurveyJS survey JSON: .json files and object literals in JS/TS/HTML.
//   node scan.js GITDIR REPO OUTDIR   -> writes OUTDIR/<n>.json with {repo, path, commit, survey}
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs"), path = require("path"), vm = require("vm");
const [gitdir, repo, outdir] = process.argv.slice(2);
const git = (...a) => execFileSync("git", ["--git-dir=" + gitdir, ...a], { maxBuffer: 1 << 28 }).toString();
const commit = git("rev-parse", "HEAD").trim();
const files = git("ls-tree", "-r", "-l", "HEAD").split("\n").filter(Boolean).map((l) => {
  const m = l.match(/^\S+ blob (\S+)\s+(\d+|-)\t(.*)$/); return m && { sha: m[1], size: +m[2], path: m[3] };
}).filter((f) => f && f.size < 1500000 && /\.(json|js|jsx|ts|tsx|vue|html|mjs|cjs|svelte|md|py)$/.test(f.path)
   && !/node_modules|\.min\.|package(-lock)?\.json|tsconfig|dist\/|bundle|vendor|survey\.core|survey-core|\.d\.ts$/.test(f.path));
const { looksLikeSurvey, matchForward } = require("./literals.js");
const found = [];
for (const f of files) {
  let text;
  try { text = execFileSync("git", ["--git-dir=" + gitdir, "cat-file", "blob", f.sha], { maxBuffer: 1 << 28 }).toString(); } catch { continue; }
  if (!/(pages|elements|questions)/.test(text)) continue;
  if (f.path.endsWith(".json")) {
    let o; try { o = JSON.parse(text.replace(/^\uFEFF/, "")); } catch { continue; }
    const cands = [o];
    if (!looksLikeSurvey(o) && o && typeof o === "object") for (const v of Object.values(o)) { cands.push(v); if (Array.isArray(v)) cands.push(...v); else if (v && typeof v === "object") cands.push(...Object.values(v)); }
    cands.filter(looksLikeSurvey).forEach((s, k) => found.push({ path: f.path, at: k, survey: s }));
    continue;
  }
  const re = /["']?\b(pages|elements|questions)\b["']?\s*:\s*\[/g;
  const ranges = [];
  let m;
  while ((m = re.exec(text))) {
    // innermost unmatched '{' before m.index (naive backwards scan)
    let depth = 0, i = m.index - 1;
    for (; i >= 0; i--) { const c = text[i]; if (c === "}" || c === "]") depth++; else if (c === "{" || c === "[") { if (depth === 0) break; depth--; } }
    if (i < 0 || text[i] !== "{") continue;
    const end = matchForward(text, i);
    if (end < 0) continue;
    const lit = text.slice(i, end + 1);
    let o;
    try { o = vm.runInNewContext("(" + lit + ")", Object.create(null), { timeout: 500 }); } catch { continue; }
    try { o = JSON.parse(JSON.stringify(o)); } catch { continue; }
    if (looksLikeSurvey(o)) ranges.push({ s: i, e: end, survey: o });
  }
  const outer = ranges.filter((r) => !ranges.some((q) => q !== r && q.s <= r.s && q.e >= r.e && (q.s < r.s || q.e > r.e)));
  const seen = new Set();
  for (const r of outer) { const k = r.s + ":" + r.e; if (seen.has(k)) continue; seen.add(k); found.push({ path: f.path, at: r.s, survey: r.survey }); }
}
fs.mkdirSync(outdir, { recursive: true });
let n = 0;
for (const c of found) {
  const qs = JSON.stringify(c.survey).match(/"type":/g) || [];
  fs.writeFileSync(path.join(outdir, `${String(n++).padStart(3, "0")}.json`), JSON.stringify({ repo, path: c.path, at: c.at, commit, types: qs.length, survey: c.survey }));
}
console.log(`${repo}: ${files.length} files scanned, ${found.length} surveys`);
