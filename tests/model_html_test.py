#!/usr/bin/env python3
"""`keylint model --format html` in a real browser.

usage: model_html_test.py KEYLINT SOURCE_ROOT

The page of the example service (and of a project with no entity) is
opened in headless Chromium (Debian's chromium; scripts/setup
--with-test-tools installs it; exit 77 without it), from a file:// URL with
networking in the background turned off: the page must load without any
console message (no script error), its script must run (it marks the
diagram data-ready), and the page as the browser built it must show every
entity of the model (NoSQL Workbench facets give the list) in the diagram
and in the charts. The page itself must need no network: no URL but the
SVG namespace, no external script, style, image or font.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

keylint, root = (os.path.abspath(p) for p in sys.argv[1:3])
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("chromium is not installed (scripts/setup --with-test-tools)")
    sys.exit(77)
passed = failed = 0


def ok(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what + (f"\n  {detail}" if detail else ""), file=sys.stderr)


class Dom(html.parser.HTMLParser):
    """The texts of the diagram's entities and of the charts' entity rows,
    and the attributes that could load something."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.diagram_entities, self.chart_entities = [], []
        self.loads = []
        self.ready = False
        self.cur = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append((tag, a))
        if tag == "svg" and a.get("id") == "diagram":
            self.ready = a.get("data-ready") == "true"
        for k in ("src", "href", "xlink:href", "srcset", "data"):
            if k in a and not (a[k] or "").startswith("#"):
                self.loads.append(f"<{tag} {k}={a[k]!r}>")
        if tag in ("link", "iframe", "object", "embed", "img", "image", "audio", "video"):
            self.loads.append(f"<{tag}>")
        if tag == "text" and any(t == "g" and "entity" in (x.get("class") or "").split()
                                 for t, x in self.stack[:-1]):
            self.cur = ("diagram", "")
        if tag == "a" and any(t == "tr" and "entity" in (x.get("class") or "").split()
                              for t, x in self.stack[:-1]):
            self.cur = ("chart", "")

    def handle_endtag(self, tag):
        if self.cur and ((self.cur[0] == "diagram" and tag == "text") or
                         (self.cur[0] == "chart" and tag == "a")):
            (self.diagram_entities if self.cur[0] == "diagram" else self.chart_entities).append(
                self.cur[1])
            self.cur = None
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        if self.cur:
            self.cur = (self.cur[0], self.cur[1] + data)


def browse(page):
    """The DOM Chromium built from `page`, and the console lines it logged."""
    with tempfile.TemporaryDirectory(prefix="keylint-chromium-") as profile:
        r = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
             "--dump-dom", "file://" + page],
            capture_output=True, text=True, timeout=180)
    console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
    return r.returncode, r.stdout, console, r.stderr


def check_page(cwd, paths, what, min_entities):
    with tempfile.TemporaryDirectory(prefix="keylint-html-") as tmp:
        page = os.path.join(tmp, "model.html")
        r = subprocess.run([keylint, "model", "-o", page, *paths], cwd=cwd,
                           capture_output=True, text=True)
        ok(r.returncode == 0, f"{what}: keylint model -o model.html: exit {r.returncode}", r.stderr)
        wb = subprocess.run([keylint, "model", "-f", "workbench", *paths], cwd=cwd,
                            capture_output=True, text=True)
        facets = [f["FacetName"] for t in json.loads(wb.stdout)["DataModel"]
                  for f in t["TableFacets"]]
        want = sorted({re.sub(r" \(\d+\)$", "", n) for n in facets})
        ok(len(want) >= min_entities, f"{what}: {len(want)} entities, want {min_entities} or more")
        source = open(page, encoding="utf-8").read()
        urls = [u for u in re.findall(r"[a-z][a-z0-9+.-]*://[^\s\"'<>)]*", source)
                if u != "http://www.w3.org/2000/svg"]
        ok(not urls, f"{what}: the page names no URL", str(urls))
        ok(not re.search(r"@import|url\(|<link\b|<script[^>]*\bsrc=", source),
           f"{what}: no external style, font, image or script")

        rc, dom, console, err = browse(page)
        ok(rc == 0 and "<svg" in dom, f"{what}: chromium loaded the page (exit {rc})", err[-2000:])
        ok(not console, f"{what}: no console message", "\n".join(console))
        d = Dom()
        d.feed(dom)
        ok(d.ready or not want, f"{what}: the page's script ran (diagram data-ready)")
        ok(not d.loads, f"{what}: nothing to load", str(d.loads))
        shown = {t.split("  ")[0] for t in d.diagram_entities}
        for name in want:
            ok(name in shown, f"{what}: the diagram shows {name}", str(sorted(shown)))
            ok(name in d.chart_entities, f"{what}: a chart shows {name}", str(d.chart_entities))
        ok(len(d.diagram_entities) == len(facets), f"{what}: one box per entity",
           f"{len(d.diagram_entities)} boxes, {len(facets)} entities")


check_page(root, ["fixtures/example-service"], "example-service", 6)
with tempfile.TemporaryDirectory(prefix="keylint-html-empty-") as empty:
    with open(os.path.join(empty, "a.ts"), "w") as f:
        f.write("export const x = 1;\n")
    check_page(empty, ["."], "a project with no entity", 0)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
