# The page's CSS and JS are kept as written, one rule or statement a line.
# ruff: noqa: E501
"""The memory view as one self-contained HTML file: inline CSS and JS, no network.

Everything from the tree is data: it is embedded as JSON in a `<script type=
"application/json">` block with `<`, `>`, `&`, U+2028 and U+2029 escaped, so no `</script>`
or `<!--` in a title or body can end the block, and the page builds its DOM with
textContent and createElement only. A Content-Security-Policy forbids every load and lets
only this file's own style and script (by nonce) run.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def embed_json(data: object) -> str:
    """JSON that is safe inside a <script> element: nothing in it can close or comment it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in _ESCAPES.items():
        text = text.replace(raw, escaped)
    return text


def csp(nonce: str) -> str:
    return (
        "default-src 'none'; "
        f"style-src 'nonce-{nonce}'; script-src 'nonce-{nonce}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )


def render(data: dict[str, Any]) -> str:
    nonce = secrets.token_urlsafe(18)
    return (
        _PAGE.replace("@CSP@", csp(nonce))
        .replace("@NONCE@", nonce)
        .replace("@CSS@", _CSS)
        .replace("@JS@", _JS)
        .replace("@DATA@", embed_json(data))
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="@CSP@">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>memhooks: what Claude remembers</title>
<style nonce="@NONCE@">@CSS@</style>
</head>
<body>
<header>
<h1>What Claude remembers</h1>
<p id="health"></p>
<p id="root" class="muted"></p>
<input id="q" type="search" placeholder="Search titles, tags and bodies" autocomplete="off">
<span id="hits" class="muted"></span>
</header>
<main>
<section id="memories-section"><h2>Memories</h2><div id="memories"></div></section>
<aside>
<section><h2>Injected by the hooks</h2><div id="injected"></div></section>
<section><h2>Superseded decisions</h2><div id="chains"></div></section>
<section><h2>Timeline</h2><ol id="timeline"></ol></section>
</aside>
</main>
<script id="memhooks-data" type="application/json">@DATA@</script>
<script nonce="@NONCE@">@JS@</script>
</body>
</html>
"""

_CSS = """
:root{--fg:#1d2430;--muted:#667085;--line:#e4e7ec;--bg:#f8f9fb;--card:#fff;--accent:#3b5bdb;
--warn:#b54708;--bad:#b42318;--ok:#067647}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);
background:var(--bg)}
header{padding:16px 24px;background:var(--card);border-bottom:1px solid var(--line)}
h1{margin:0 0 4px;font-size:20px}h2{font-size:15px;margin:0 0 8px}h3{font-size:13px;margin:12px 0 4px}
.category>h3{text-transform:capitalize;color:var(--muted)}
.muted{color:var(--muted)}
#q{width:min(520px,100%);padding:7px 10px;border:1px solid var(--line);border-radius:6px;font:inherit;
margin-top:6px}
#hits{margin-left:8px}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:16px;padding:16px 24px}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px;
margin-bottom:16px}
details.mem{border-top:1px solid var(--line);padding:6px 0}
details.mem summary{cursor:pointer;list-style-position:outside}
.badge{display:inline-block;font-size:11px;padding:0 6px;border-radius:9px;margin-left:6px;
border:1px solid var(--line)}
.st-retired{color:var(--bad)}.st-archived{color:var(--muted)}.st-stale{color:var(--warn)}
.st-active{color:var(--ok)}.st-native{color:var(--muted)}
.tag{font-size:11px;color:var(--accent);margin-right:6px}
.body{padding:6px 10px;margin:6px 0;background:var(--bg);border-radius:6px;overflow-wrap:anywhere}
.body pre{background:#eef1f5;padding:6px;overflow:auto}
.reason{color:var(--bad);font-size:12px}
.bar{display:flex;align-items:center;gap:6px;font-size:12px;margin:2px 0}
.bar .lbl{flex:none;width:150px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bar span:last-child{white-space:nowrap}
.bar .fill{height:10px;background:var(--accent);border-radius:3px;min-width:1px}
.chain{font-size:12px;margin:4px 0}.chain .old{text-decoration:line-through;color:var(--muted)}
#timeline{list-style:none;padding:0;margin:0;max-height:520px;overflow:auto}
#timeline li{border-left:2px solid var(--line);padding:2px 0 6px 10px;font-size:12px}
#timeline .kind{font-weight:600}
.history h4{font-size:12px;margin:6px 0 2px}.history ol{margin:0;padding-left:18px;font-size:12px}
.hidden{display:none}
@media (max-width:900px){main{grid-template-columns:1fr}}
"""

_JS = r"""
(function(){
"use strict";
var data = JSON.parse(document.getElementById("memhooks-data").textContent);
function el(tag, cls, text){
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
var known = {};
data.memories.forEach(function(m){ known[m.path] = m; });
var MEM_LINK = /^(?:\.\/|\.\.\/)*([a-z0-9_-]+\/[A-Za-z0-9._-]+\.md)$/;
function inline(parent, text){
  var re = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*/g, last = 0;
  Array.from(String(text).matchAll(re)).forEach(function(m){
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined){ parent.appendChild(el("code", "", m[1])); }
    else if (m[4] !== undefined){ parent.appendChild(el("strong", "", m[4])); }
    else {
      var target = m[3].match(MEM_LINK);
      if (target && known[target[1]]){
        var a = el("a", "", m[2]);
        a.href = "#m=" + encodeURIComponent(target[1]);
        parent.appendChild(a);
      } else {
        parent.appendChild(document.createTextNode(m[2] + " (" + m[3] + ")"));
      }
    }
    last = m.index + m[0].length;
  });
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}
function markdown(text){
  var root = el("div", "body"), lines = String(text).split("\n"), i = 0, list = null, para = [];
  function flush(){
    if (para.length){ var p = el("p"); inline(p, para.join(" ")); root.appendChild(p); para = []; }
  }
  while (i < lines.length){
    var line = lines[i];
    if (/^```/.test(line)){
      flush(); list = null;
      var code = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])){ code.push(lines[i]); i++; }
      var pre = el("pre"); pre.appendChild(el("code", "", code.join("\n"))); root.appendChild(pre);
      i++; continue;
    }
    var h = line.match(/^(#{1,6})\s+(.*)$/);
    var li = line.match(/^\s*(?:[-*+]|\d+[.)])\s+(.*)$/);
    if (h){ flush(); list = null; var hh = el("h" + Math.min(6, h[1].length + 2)); inline(hh, h[2]);
      root.appendChild(hh); }
    else if (li){ flush(); if (!list){ list = el("ul"); root.appendChild(list); }
      var item = el("li"); inline(item, li[1]); list.appendChild(item); }
    else if (!line.trim()){ flush(); list = null; }
    else { list = null; para.push(line.trim()); }
    i++;
  }
  flush();
  return root;
}
function stateOf(m){
  if (m.status !== "active") return m.status;
  return m.stale.length ? "stale" : "active";
}
// Health line and counts
var st = data.status;
document.getElementById("health").textContent = "Status: " + st.status_line;
document.getElementById("root").textContent = data.root + " \u00b7 generated " + data.generated;
// Memories by category; at most LIMIT rows per category are in the DOM at once
var LIMIT = 200;
var box = document.getElementById("memories"), rows = [], groups = {}, byPath = {};
function memNode(m){
  var d = el("details", "mem"); d.id = "mem-" + m.path;
  d.setAttribute("data-path", m.path); d.setAttribute("data-state", stateOf(m));
  var s = el("summary"); s.appendChild(el("span", "title", m.title || m.path));
  var state = stateOf(m);
  s.appendChild(el("span", "badge st-" + state, state));
  if (m.superseded_by) s.appendChild(el("span", "badge st-retired", "superseded by " + m.superseded_by));
  d.appendChild(s);
  var meta = el("div", "muted");
  m.tags.forEach(function(t){ meta.appendChild(el("span", "tag", "#" + t)); });
  meta.appendChild(document.createTextNode(m.path + " \u00b7 " + (m.updated || m.created)));
  d.appendChild(meta);
  if (m.reason) d.appendChild(el("div", "reason", m.status + ": " + m.reason));
  if (m.stale.length) d.appendChild(el("div", "reason", "cited code changed: " + m.stale.join(", ")));
  var built = false;
  d.addEventListener("toggle", function(){
    if (d.open && !built){ built = true; d.appendChild(markdown(m.body)); if (m.history && m.history.length) d.appendChild(historyNode(m.history)); }
  });
  return d;
}
function historyNode(commits){
  var box = el("div", "history"); box.appendChild(el("h4", "", "History in git"));
  var ol = el("ol");
  commits.forEach(function(c){
    var li = el("li");
    li.appendChild(el("code", "", c.hash));
    li.appendChild(el("span", "muted", " " + c.date + " " + c.author + ": "));
    li.appendChild(el("span", "", c.subject));
    ol.appendChild(li);
  });
  box.appendChild(ol);
  return box;
}
data.memories.forEach(function(m){
  var g = groups[m.category];
  if (!g){
    g = el("div", "category"); g.setAttribute("data-category", m.category);
    g.head = el("h3", "", m.category.replace(/_/g, " "));
    g.list = el("div"); g.more = el("p", "muted");
    g.appendChild(g.head); g.appendChild(g.list); g.appendChild(g.more);
    g.total = 0; g.active = 0; groups[m.category] = g; box.appendChild(g);
  }
  g.total++;
  if (m.status === "active") g.active++;
  var r = {m: m, node: null, group: g,
    hay: (m.title + "\n" + m.tags.join(" ") + "\n" + m.description + "\n" + m.body + "\n" + m.path).toLowerCase()};
  rows.push(r); byPath[m.path] = r;
});
function nodeOf(r){ if (!r.node) r.node = memNode(r.m); return r.node; }
Object.keys(groups).forEach(function(k){
  var g = groups[k];
  g.head.textContent += " (" + g.active + " active" + (g.total !== g.active ? " of " + g.total : "") + ")";
});
if (!data.memories.length) box.appendChild(el("p", "muted", "No memories yet."));
// Search
var q = document.getElementById("q"), hits = document.getElementById("hits");
function search(term){
  term = term.trim().toLowerCase();
  var n = 0, shown = {};
  Object.keys(groups).forEach(function(k){
    var g = groups[k]; g.shown = 0; g.hiddenMatches = 0;
    while (g.list.firstChild) g.list.removeChild(g.list.firstChild);
  });
  rows.forEach(function(r){
    if (term && r.hay.indexOf(term) === -1) return;
    n++;
    var g = r.group;
    if (g.shown < LIMIT){ g.list.appendChild(nodeOf(r)); g.shown++; } else { g.hiddenMatches++; }
  });
  Object.keys(groups).forEach(function(k){
    var g = groups[k];
    g.classList.toggle("hidden", g.shown === 0);
    g.more.textContent = g.hiddenMatches ? "\u2026 and " + g.hiddenMatches + " more: search to narrow" : "";
  });
  hits.textContent = term ? n + " of " + rows.length + " memories match" : rows.length + " memories";
  hits.setAttribute("data-matches", String(n));
}
q.addEventListener("input", function(){ search(q.value); });
function fromHash(){
  var h = location.hash.slice(1), parts = {};
  h.split("&").forEach(function(p){ var i = p.indexOf("="); if (i > 0){
    try { parts[p.slice(0, i)] = decodeURIComponent(p.slice(i + 1)); } catch (e) {} } });
  if (parts.q !== undefined){ q.value = parts.q; }
  search(q.value);
  var r = parts.m ? byPath[parts.m] : null;
  if (r){
    var target = nodeOf(r);
    if (!target.parentNode){ r.group.list.insertBefore(target, r.group.list.firstChild); }
    r.group.classList.remove("hidden");
    target.open = true; target.scrollIntoView();
  }
}
window.addEventListener("hashchange", fromHash);
// Injected characters: one bar per session and hook
var inj = document.getElementById("injected"), max = 1;
data.injected.forEach(function(s){ Object.keys(s.hooks).forEach(function(h){ max = Math.max(max, s.hooks[h].chars); }); });
if (!data.injected.length) inj.appendChild(el("p", "muted", "Nothing recorded yet."));
data.injected.forEach(function(s){
  inj.appendChild(el("div", "muted", "session " + s.session_id + ": " + s.total_chars.toLocaleString("en") + " characters"));
  Object.keys(s.hooks).forEach(function(h){
    var v = s.hooks[h], row = el("div", "bar");
    row.appendChild(el("span", "lbl", h));
    var fill = el("span", "fill"); fill.style.width = Math.max(1, Math.round(200 * v.chars / max)) + "px";
    row.appendChild(fill);
    row.appendChild(el("span", "", v.chars.toLocaleString("en") + " in " + v.injections));
    inj.appendChild(row);
  });
});
// Chains of superseded decisions
var ch = document.getElementById("chains");
if (!data.chains.length) ch.appendChild(el("p", "muted", "None."));
data.chains.forEach(function(chain){
  var row = el("div", "chain");
  chain.forEach(function(p, i){
    if (i) row.appendChild(document.createTextNode(" \u2192 "));
    var m = known[p], a = el("a", i < chain.length - 1 ? "old" : "", m ? m.title : p);
    a.href = "#m=" + encodeURIComponent(p);
    row.appendChild(a);
  });
  ch.appendChild(row);
});
// Timeline
var tl = document.getElementById("timeline");
if (!data.timeline.length) tl.appendChild(el("li", "muted", "No sessions yet."));
data.timeline.forEach(function(ev){
  var li = el("li"); li.setAttribute("data-kind", ev.kind);
  li.appendChild(el("span", "kind", ev.kind + " "));
  li.appendChild(el("span", "muted", ev.when + " "));
  if (known[ev.path]){ var a = el("a", "", ev.title); a.href = "#m=" + encodeURIComponent(ev.path); li.appendChild(a); }
  else li.appendChild(el("span", "", ev.title));
  if (ev.body){
    var d = el("details"); d.appendChild(el("summary", "muted", "open"));
    var built = false;
    d.addEventListener("toggle", function(){ if (d.open && !built){ built = true; d.appendChild(markdown(ev.body)); } });
    li.appendChild(d);
  }
  tl.appendChild(li);
});
fromHash();
document.body.setAttribute("data-ready", "1");
document.body.setAttribute("data-ms", String(Math.round(performance.now())));
})();
"""
