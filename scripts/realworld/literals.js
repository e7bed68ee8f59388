// The SurveyJS object literals of JavaScript text: shared by scan.js (finds them) and materialise.js
// (takes one out again at the offset scan.js recorded), so both read a file the same way.
"use strict";
const isQuestionArray = (a) => Array.isArray(a) && a.some((e) => e && typeof e === "object" && typeof e.type === "string");
function looksLikeSurvey(o) {
  if (!o || typeof o !== "object" || Array.isArray(o)) return false;
  if (Array.isArray(o.pages) && o.pages.some((p) => p && isQuestionArray(p.elements || p.questions))) return true;
  if (isQuestionArray(o.elements) || isQuestionArray(o.questions)) return !("type" in o && o.type !== "survey");
  return false;
}
function matchForward(text, start) { // text[start] == '{'
  let depth = 0, i = start, q = null;
  for (; i < text.length; i++) {
    const c = text[i];
    if (q) { if (c === "\\") { i++; continue; } if (c === q) q = null; continue; }
    if (c === '"' || c === "'" || c === "`") { q = c; continue; }
    if (c === "/" && text[i + 1] === "/") { const j = text.indexOf("\n", i); if (j < 0) return -1; i = j; continue; }
    if (c === "/" && text[i + 1] === "*") { const j = text.indexOf("*/", i + 2); if (j < 0) return -1; i = j + 1; continue; }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") { depth--; if (depth === 0) return i; }
  }
  return -1;
}

module.exports = { isQuestionArray, looksLikeSurvey, matchForward };
