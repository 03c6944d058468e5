#!/usr/bin/env python3
"""The composite GitHub Action (action.yml), run the way a runner would.

usage: action_test.py YAML2JSON SOURCE_ROOT [NPM_DIST_DIR]

Reads action.yml (through tests/yaml2json, libyaml: no YAML parser is
assumed here), checks its shape (inputs, outputs, no ${{ }} inside a `run:`
script: inputs reach scripts only through `env:`), then runs its steps in
order for several workflows, in a GitHub-like environment: a copy of this
checkout as $GITHUB_ACTION_PATH, a git work tree as $GITHUB_WORKSPACE,
$GITHUB_OUTPUT per step, $GITHUB_STEP_SUMMARY, $RUNNER_TEMP, RUNNER_OS.
`uses:` steps (cache, SARIF upload) are not run: their `if:` is evaluated
and their `with:` recorded; the dependency install step (id `deps`) is
skipped (the test machine has the packages). The build step really builds
keylint in the copy. Each workflow checks the annotations, the job summary,
the action's outputs and whether the job fails. With NPM_DIST_DIR (the
tarballs of scripts/npm-pack), the action's npm mode too: `package:` with
the tarballs (npm offline) and `version:` from a registry on loopback
(tests/npm_registry.py) serving them, and no build.

Standard library only.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PASSED = 0
FAILED = 0


def ok(cond, what, detail=""):
    global PASSED, FAILED
    if cond:
        PASSED += 1
    else:
        FAILED += 1
        print(f"FAIL: {what}" + (f"\n  {detail}" if detail else ""), file=sys.stderr)
    return cond


# ---- a small evaluator for GitHub expressions ------------------------------

TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_.\-]*(?:\(\))?)|(\d+))")


class Expr:
    def __init__(self, text, ctx):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read expression at: {text[pos:]!r}")
            pos = m.end()
            if m.group(1):
                self.toks.append(("op", m.group(1)))
            elif m.group(2) is not None:
                self.toks.append(("str", m.group(2).replace("''", "'")))
            elif m.group(3):
                self.toks.append(("name", m.group(3)))
            else:
                self.toks.append(("str", m.group(4)))
        self.i = 0
        self.ctx = ctx

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def parse(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise ValueError(f"trailing tokens: {self.toks[self.i:]}")
        return v

    def or_(self):
        v = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            r = self.and_()
            v = v if truthy(v) else r
        return v

    def and_(self):
        v = self.unary()
        while self.peek() == ("op", "&&"):
            self.take()
            r = self.unary()
            v = r if truthy(v) else v
        return v

    def unary(self):
        if self.peek() == ("op", "!"):
            self.take()
            return not truthy(self.unary())
        return self.cmp()

    def cmp(self):
        v = self.primary()
        if self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            r = self.primary()
            eq = str(v).lower() == str(r).lower()
            return eq if op == "==" else not eq
        return v

    def primary(self):
        kind, val = self.take()
        if kind == "op" and val == "(":
            v = self.or_()
            if self.take() != ("op", ")"):
                raise ValueError("missing )")
            return v
        if kind == "str":
            return val
        if kind == "name":
            return self.ctx(val)
        raise ValueError(f"unexpected {val!r}")


def truthy(v):
    if isinstance(v, bool):
        return v
    return v not in ("", None)


TEMPLATE = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def expand(text, ctx):
    return TEMPLATE.sub(lambda m: str(Expr(m.group(1), ctx).parse()), text)


def condition(text, ctx):
    text = text.strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", text, re.S)
    if m:
        text = m.group(1)
    return truthy(Expr(text, ctx).parse())


def read_outputs(path):
    """GITHUB_OUTPUT: name=value lines and name<<DELIM heredocs."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            val = []
            while i < len(lines) and lines[i] != delim:
                val.append(lines[i])
                i += 1
            i += 1
            out[name] = "\n".join(val)
        elif "=" in line:
            name, val = line.split("=", 1)
            out[name] = val
    return out


# ---- running the action --------------------------------------------------------


class Runner:
    def __init__(self, action, action_path, tmp):
        self.action = action
        self.action_path = action_path
        self.tmp = tmp

    def run(self, workspace, inputs, cache_hit="", event_env=None):
        """Run every step; returns a dict with the steps' records, the
        action's outputs, the summary text and whether the job failed.
        `event_env`: what the event sets besides (GITHUB_BASE_REF on a pull
        request)."""
        runner_temp = tempfile.mkdtemp(dir=self.tmp, prefix="runner-temp-")
        summary = os.path.join(runner_temp, "step_summary.md")
        open(summary, "w").close()
        defaults = {k: (v.get("default", "") if isinstance(v, dict) else "")
                    for k, v in self.action.get("inputs", {}).items()}
        unknown = set(inputs) - set(defaults)
        assert not unknown, f"unknown inputs {unknown}"
        values = {**defaults, **inputs}
        steps = {}
        failed = False
        records = []

        def ctx(name):
            if name in ("always()",):
                return True
            if name == "success()":
                return not failed
            if name == "failure()":
                return failed
            if name == "cancelled()":
                return False
            parts = name.split(".")
            if parts[0] == "inputs":
                return values.get(".".join(parts[1:]), "")
            if parts[0] == "steps" and len(parts) >= 4 and parts[2] == "outputs":
                return steps.get(parts[1], {}).get(".".join(parts[3:]), "")
            if parts[0] == "steps" and len(parts) == 3:
                return steps.get(parts[1], {}).get("@" + parts[2], "")
            if name == "github.action_path":
                return self.action_path
            if name == "github.workspace":
                return workspace
            if name == "runner.temp":
                return runner_temp
            if name == "runner.os":
                return "Linux"
            if name in ("true", "false"):
                return name == "true"
            raise ValueError(f"expression name not supported by the harness: {name}")

        for n, step in enumerate(self.action["runs"]["steps"]):
            sid = step.get("id", f"__step{n}")
            rec = {"name": step.get("name", sid), "id": sid, "ran": False, "uses": step.get("uses", "")}
            records.append(rec)
            cond = step.get("if", "success()")
            if not condition(cond, ctx):
                rec["skipped"] = "condition"
                steps[sid] = {"@outcome": "skipped", "@conclusion": "skipped"}
                continue
            if "uses" in step:
                rec["with"] = {k: expand(v, ctx) for k, v in step.get("with", {}).items()}
                rec["skipped"] = "uses"
                steps[sid] = {"cache-hit": cache_hit} if sid == "cache" else {}
                steps[sid].update({"@outcome": "success", "@conclusion": "success"})
                continue
            if sid == "deps":
                rec["skipped"] = "dependency install"
                steps[sid] = {"@outcome": "success", "@conclusion": "success"}
                continue
            assert step.get("shell") == "bash", f"step {rec['name']}: shell must be bash"
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith(("GITHUB_", "INPUT_", "RUNNER_"))}
            out_file = os.path.join(runner_temp, f"output_{n}")
            open(out_file, "w").close()
            env.update({
                "GITHUB_ACTIONS": "true",
                "CI": "true",
                "GITHUB_WORKSPACE": workspace,
                "GITHUB_ACTION_PATH": self.action_path,
                "GITHUB_OUTPUT": out_file,
                "GITHUB_STEP_SUMMARY": summary,
                "GITHUB_ENV": os.path.join(runner_temp, "env"),
                "RUNNER_OS": "Linux",
                "RUNNER_ARCH": "X64",
                "RUNNER_TEMP": runner_temp,
                "ImageOS": "ubuntu24",
            })
            env.update(event_env or {})
            for k, v in step.get("env", {}).items():
                env[k] = expand(v, ctx)
            cwd = workspace
            if "working-directory" in step:
                cwd = os.path.normpath(os.path.join(workspace, expand(step["working-directory"], ctx)))
            script = os.path.join(runner_temp, f"step_{n}.sh")
            with open(script, "w") as f:
                f.write(step["run"])
            p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                               cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
            rec.update(ran=True, rc=p.returncode, stdout=p.stdout, stderr=p.stderr, env=env)
            steps[sid] = read_outputs(out_file)
            outcome = "success" if p.returncode == 0 else "failure"
            steps[sid].update({"@outcome": outcome, "@conclusion": outcome})
            if p.returncode != 0:
                failed = True
        outputs = {k: expand(v.get("value", ""), ctx) for k, v in self.action.get("outputs", {}).items()}
        return {
            "steps": {r["id"]: r for r in records},
            "order": records,
            "outputs": outputs,
            "summary": open(summary, encoding="utf-8").read(),
            "failed": failed,
            "runner_temp": runner_temp,
        }


# ---- the test ------------------------------------------------------------------

A_TS = """import { GetCommand } from '@aws-sdk/lib-dynamodb';
export const get = (ddb: any, userId: string, orderId: string) =>
  ddb.send(new GetCommand({ TableName: 't', Key: { pk: `USER#${userId}`, sk: `${userId}${orderId}` } }));
"""
CLEAN_TS = """export const USER_PREFIX = 'USER#';
export function userPk(id: string) { return `${USER_PREFIX}${id}`; }
"""
WARN_TS = "export const f = (db: any, id: string) => db.put({ pk: `USER#${id}`, sk: SK });\n"


def workspace(tmp, name, files):
    ws = os.path.join(tmp, name)
    for rel, text in files.items():
        path = os.path.join(ws, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    subprocess.run(["git", "init", "-q", ws], check=True)
    return ws


def checkout_files(root):
    """The files of this checkout, as a clone of it would have them: what
    git tracks or would track, plus the fetched grammar tarball (ignored by
    git, needed by the build). Outside git: everything but build output."""
    p = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                        "--exclude-standard"], capture_output=True)
    if p.returncode == 0 and p.stdout:
        files = [f for f in p.stdout.decode().split("\0") if f]
    else:
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith(("build", ".git", "node_modules", "."))]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    pkg = os.path.join(root, "subprojects", "packagefiles")
    files += [os.path.join("subprojects", "packagefiles", n) for n in os.listdir(pkg) if n.endswith(".tgz")]
    return sorted(set(files))


def show(result):
    lines = []
    for r in result["order"]:
        lines.append(f"--- {r['name']}: " + (f"rc={r['rc']}" if r["ran"] else f"skipped ({r.get('skipped')})"))
        if r["ran"]:
            lines.append(r["stdout"][-3000:])
            lines.append(r["stderr"][-3000:])
    return "\n".join(lines)


def npm_mode(runner, tmp, root, npm_dist, action_path):
    """Workflows with `package:` and `version:`: keylint from npm, no build."""
    version = json.load(open(os.path.join(root, "npm", "keylint", "package.json")))["version"]
    native = {"x86_64": "x64", "aarch64": "arm64"}.get(os.uname().machine, "")
    # no build to fall back on: the lint must run the installed package
    build = os.path.join(action_path, "build")
    os.rename(build, build + ".off")
    os.environ.update({"npm_config_cache": os.path.join(tmp, "npm-cache"),
                       "npm_config_update_notifier": "false"})
    try:
        ws = workspace(tmp, "ws7", {"src/a.ts": A_TS, "src/clean.ts": CLEAN_TS})
        dist = os.path.join(ws, "dist")
        os.makedirs(dist)
        for name in (f"keylint-{version}.tgz", f"keylint-linux-{native}-{version}.tgz"):
            shutil.copy(os.path.join(npm_dist, name), dist)
        os.environ["npm_config_offline"] = "true"
        r = runner.run(ws, {"paths": "src", "package": f"dist/keylint-{version}.tgz\n"
                                                     f"dist/keylint-linux-{native}-{version}.tgz"})
        del os.environ["npm_config_offline"]
        detail = show(r)
        ok(r["steps"]["npm"]["ran"] and r["steps"]["npm"]["rc"] == 0, "6: package: npm installs", detail)
        ok(f"keylint {version}" in r["steps"]["npm"].get("stdout", ""), "6: package: the installed keylint runs", detail)
        for sid in ("cache-key", "cache", "deps", "build"):
            ok(r["steps"][sid].get("skipped") == "condition", f"6: package: step {sid} skipped", detail)
        save = [x for x in r["order"] if x.get("uses", "").startswith("actions/cache/save@")]
        ok(save[0].get("skipped") == "condition", "6: package: no cache save")
        ok("node_modules/.bin/keylint" in r["steps"]["lint"]["env"].get("NPM_KEYLINT", ""),
           "6: package: the lint runs the npm keylint", detail)
        out = r["steps"]["lint"].get("stdout", "")
        ok("::error file=src/a.ts,line=3,col=90," in out, "6: package: error annotation", out)
        ok(r["outputs"]["errors"] == "1" and r["failed"] and r["order"][-1]["rc"] == 1,
           "6: package: outputs and the job fails", detail)

        # `version:` from a registry that serves the tarballs (the published
        # package, as npm resolves it: the launcher, then its optional
        # dependency for this platform)
        port_file = os.path.join(tmp, "registry.port")
        reg = subprocess.Popen([sys.executable, os.path.join(root, "tests", "npm_registry.py"),
                                npm_dist, port_file])
        try:
            for _ in range(100):
                if os.path.exists(port_file):
                    break
                subprocess.run(["sleep", "0.1"])
            port = open(port_file).read().strip()
            os.environ["npm_config_registry"] = f"http://127.0.0.1:{port}/"
            ws = workspace(tmp, "ws8", {"src/clean.ts": CLEAN_TS})
            r = runner.run(ws, {"paths": "src", "version": version})
            detail = show(r)
            ok(r["steps"]["npm"].get("rc") == 0, "7: version: npm installs keylint@" + version, detail)
            ok(f"npm install keylint@{version}" in r["steps"]["npm"].get("stdout", ""),
               "7: version: installs the named version", detail)
            ok(r["steps"]["build"].get("skipped") == "condition", "7: version: no build", detail)
            ok(not r["failed"] and r["outputs"]["errors"] == "0", "7: version: a clean project passes", detail)
            r = runner.run(ws, {"paths": "src", "version": "9.9.9"})
            ok(r["failed"] and r["steps"]["npm"].get("rc") not in (None, 0), "7: an unknown version fails",
               show(r))
            ok(not r["steps"]["lint"]["ran"], "7: nothing is linted after a failed install", show(r))
        finally:
            del os.environ["npm_config_registry"]
            reg.terminate()
            reg.wait()
    finally:
        os.rename(build + ".off", build)


ORDERS_TS = """import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
export const putOrder = (ddb: any, tenantId: string, orderId: string, status: string, shopId: string) =>
  ddb.send(new PutCommand({ TableName: 'app', Item: {
    pk: `TENANT#${tenantId}`, sk: `ORDER#${orderId}`, gsi1pk: `STATUS#${status}` } }));
"""
INVOICES_TS = """import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export const invoicesOf = (ddb: any, tenantId: string) =>
  ddb.send(new QueryCommand({ TableName: 'app',
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':sk': 'INVOICE#' } }));
"""


def git(ws, *args):
    subprocess.run(["git", "-C", ws, "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


def design_diff(runner, tmp):
    """A pull request (GITHUB_BASE_REF set): its key design changes since
    where it left the base branch go to the job summary; without the base
    branch in the checkout, a warning; never a failed job."""
    ws = workspace(tmp, "ws-pr", {"src/orders.ts": ORDERS_TS})
    git(ws, "checkout", "-q", "-b", "main")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "base")
    git(ws, "checkout", "-q", "-b", "feature")
    with open(os.path.join(ws, "src", "orders.ts"), "w") as f:
        f.write(ORDERS_TS.replace("sk: `ORDER#${orderId}`,", "sk: `ORDER#${orderId}#${shopId}`,")
                .replace(", gsi1pk: `STATUS#${status}`", ""))
    with open(os.path.join(ws, "src", "invoices.ts"), "w") as f:
        f.write(INVOICES_TS)
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "feature")
    pr = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "feature"}
    r = runner.run(ws, {"paths": "src"}, cache_hit="true", event_env=pr)
    detail = show(r)
    design = r["steps"].get("design", {})
    ok(design.get("ran") and design.get("rc") == 0, "6: the design step runs on a pull request", detail)
    summary = r["summary"]
    ok("### Key design changes since `main... (" in summary, "6: design changes in the job summary", summary)
    ok("| **ORDER** | sk changed | `ORDER#{orderId}` | `ORDER#{orderId}#{shopId}` | `src/orders.ts:4` |"
       in summary, "6: the sort key that gained a component", summary)
    ok("| **ORDER** | gsi1pk no longer written | `STATUS#{status}` |" in summary,
       "6: the index key no longer written", summary)
    ok("⚠ query added, no write matches it" in summary and "src/invoices.ts:3" in summary,
       "6: the query added", summary)
    ok(not r["failed"], "6: the job passes (warnings only)", detail)

    # not a pull request: nothing; design-diff false: nothing
    r = runner.run(ws, {"paths": "src"}, cache_hit="true")
    ok("Key design changes" not in r["summary"], "6: no design changes outside a pull request", r["summary"])
    r = runner.run(ws, {"paths": "src", "design-diff": "false"}, cache_hit="true", event_env=pr)
    ok(r["steps"]["design"].get("skipped") == "condition", "6: design-diff false skips the step")
    ok("Key design changes" not in r["summary"], "6: design-diff false: no design changes", r["summary"])
    # a revision named: since it
    r = runner.run(ws, {"paths": "src", "design-diff": "HEAD~1"}, cache_hit="true")
    ok("### Key design changes since `HEAD~1 (" in r["summary"], "6: design-diff names a revision", r["summary"])
    # the base branch not fetched: a warning, the job as it was
    r = runner.run(ws, {"paths": "src"}, cache_hit="true",
                   event_env={**pr, "GITHUB_BASE_REF": "release"})
    ok("::warning title=keylint::no key design changes: the base branch release is not in the checkout"
       in r["steps"]["design"].get("stdout", ""), "6: a base branch not fetched is a warning", show(r))
    ok(not r["failed"], "6: ... and does not fail the job", show(r))


def main():
    yaml2json, root = sys.argv[1], sys.argv[2]
    npm_dist = sys.argv[3] if len(sys.argv) > 3 else ""
    p = subprocess.run([yaml2json, os.path.join(root, "action.yml")], capture_output=True, text=True)
    if not ok(p.returncode == 0, "action.yml parses", p.stderr):
        return 1
    action = json.loads(p.stdout)

    # ---- shape -------------------------------------------------------------
    ok(action["runs"]["using"] == "composite", "composite action")
    for name in ["paths", "config", "format", "fail-on", "sarif-file", "upload-sarif",
                 "baseline", "working-directory", "version", "package", "design-diff"]:
        ok(name in action.get("inputs", {}), f"input {name}")
    for name in ["errors", "warnings", "sarif-file"]:
        ok(name in action.get("outputs", {}), f"output {name}")
    steps = action["runs"]["steps"]
    for s in steps:
        if "run" in s:
            ok("${{" not in s["run"], f"step {s.get('name')}: no ${{{{ }}}} inside run:",
               "inputs must reach scripts through env:")
            ok(s.get("shell") == "bash", f"step {s.get('name')}: shell bash")
    uses = [s["uses"] for s in steps if "uses" in s]
    # third-party actions are pinned by commit, not by a tag that can move
    for u in uses:
        ok(re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u) is not None,
           f"{u}: pinned by a full commit hash")
    ok(any(u.startswith("actions/cache/restore@") for u in uses), "restores a build cache")
    ok(any(u.startswith("actions/cache/save@") for u in uses), "saves the build cache")
    upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    ok(len(upload) == 1, "uploads SARIF with github/codeql-action/upload-sarif")
    ok(any(s.get("id") == "deps" for s in steps), "a dependency step with id deps")

    tmp = tempfile.mkdtemp(prefix="keylint-action-")
    try:
        # the action, as a runner checks it out: a copy of this checkout
        action_path = os.path.join(tmp, "action")
        os.makedirs(action_path)
        for rel in checkout_files(root):
            src = os.path.join(root, rel)
            if not os.path.lexists(src):
                continue  # deleted in the work tree
            dst = os.path.join(action_path, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst, follow_symlinks=False)
        runner = Runner(action, action_path, tmp)
        lint_script = [st for st in action["runs"]["steps"] if st.get("id") == "lint"][0]["run"]
        keylint = os.path.join(action_path, "build", "keylint")

        # ---- 1. defaults, with SARIF upload: annotations, summary, outputs ----
        ws = workspace(tmp, "ws1", {"src/a.ts": A_TS, "src/clean.ts": CLEAN_TS})
        r = runner.run(ws, {"paths": "src", "upload-sarif": "true"})
        detail = show(r)
        ok(r["steps"]["build"]["ran"] and r["steps"]["build"]["rc"] == 0, "1: build step builds", detail)
        ok(os.access(keylint, os.X_OK), "1: keylint built in the action's build/")
        # the cached binary needs no package on a runner: nothing but libc
        libs = subprocess.run(["ldd", keylint], capture_output=True, text=True).stdout
        needed = [l.split()[0] for l in libs.splitlines() if "=>" in l]
        ok(all(re.match(r"lib(c|m|pthread|dl|rt)\.so", n) for n in needed),
           "1: keylint links only libc (tree-sitter, libyaml, jansson static)", libs)
        ok(lint_script.count('"$keylint"') == 1, "keylint runs once per job, whatever the formats")
        ok(r["steps"]["deps"].get("skipped") == "dependency install", "1: deps skipped")
        ok(r["steps"]["cache"].get("skipped") == "uses", "1: cache restore not run")
        save = [x for x in r["order"] if x.get("uses", "").startswith("actions/cache/save@")]
        ok(save and save[0].get("skipped") == "uses", "1: cache saved on a miss")
        lint = r["steps"]["lint"]
        out = lint.get("stdout", "")
        ok("::error file=src/a.ts,line=3,col=90,endLine=3,endColumn=" in out, "1: error annotation", out)
        ok("title=keylint missing-delimiter::'userId' and 'orderId' are joined" in out, "1: annotation title and message", out)
        ok("::warning file=src/a.ts,line=3,col=57," in out, "1: warning annotation", out)
        ok("1 error, 1 warning in 2 files" in out, "1: summary line in the log", out)
        ok("| missing-delimiter | error | 1 |" in r["summary"], "1: job summary table", r["summary"])
        ok("**1 error, 1 warning** in 2 files." in r["summary"], "1: job summary totals", r["summary"])
        ok(r["outputs"]["errors"] == "1" and r["outputs"]["warnings"] == "1",
           "1: outputs errors=1 warnings=1", str(r["outputs"]))
        sarif = r["outputs"]["sarif-file"]
        ok(sarif == os.path.join(r["runner_temp"], "keylint.sarif"), "1: SARIF in $RUNNER_TEMP", sarif)
        if ok(os.path.isfile(sarif), "1: SARIF written"):
            log = json.load(open(sarif))
            res = log["runs"][0]["results"]
            ok(len(res) == 2, "1: SARIF has both findings")
            loc = res[0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ok(loc == {"uri": "src/a.ts", "uriBaseId": "%SRCROOT%"}, "1: SARIF URI", str(loc))
        up = [x for x in r["order"] if x.get("uses", "").startswith("github/codeql-action/upload-sarif@")][0]
        ok(up.get("skipped") == "uses" and up["with"].get("sarif_file") == sarif,
           "1: upload-sarif would run with the SARIF file", str(up))
        ok(r["failed"] and r["order"][-1]["rc"] == 1, "1: the job fails (an error finding)", detail)

        # ---- 2. working-directory, repository-relative paths, no upload --------
        ws = workspace(tmp, "ws2", {"svc/src/a.ts": A_TS})
        r = runner.run(ws, {"working-directory": "svc", "paths": "src", "sarif-file": "keylint.sarif",
                            "fail-on": "warning"}, cache_hit="true")
        detail = show(r)
        ok("using the cached build" in r["steps"]["build"].get("stdout", ""), "2: cache hit uses the build", detail)
        ok(r["steps"]["deps"].get("skipped") == "condition", "2: a cache hit installs nothing", detail)
        save = [x for x in r["order"] if x.get("uses", "").startswith("actions/cache/save@")]
        ok(save[0].get("skipped") == "condition", "2: no cache save on a hit")
        out = r["steps"]["lint"].get("stdout", "")
        ok("::error file=svc/src/a.ts,line=3," in out, "2: annotation paths from the repository root", out)
        ok(r["outputs"]["sarif-file"] == os.path.join(ws, "svc", "keylint.sarif"), "2: sarif-file absolute",
           r["outputs"]["sarif-file"])
        up = [x for x in r["order"] if x.get("uses", "").startswith("github/codeql-action/upload-sarif@")][0]
        ok(up.get("skipped") == "condition", "2: no upload unless asked")
        ok(r["failed"], "2: fails")

        # ---- 3. a baseline: only new findings count --------------------------
        ws = workspace(tmp, "ws3", {"src/a.ts": A_TS})
        subprocess.run([keylint, "--baseline-write", ".keylint-baseline.json", "src"], cwd=ws,
                       capture_output=True, check=True)
        r = runner.run(ws, {"paths": "src", "baseline": ".keylint-baseline.json"})
        detail = show(r)
        ok(not r["failed"], "3: baseline: the job passes", detail)
        ok(r["outputs"]["errors"] == "0" and r["outputs"]["warnings"] == "0", "3: outputs 0/0", str(r["outputs"]))
        ok("::error" not in r["steps"]["lint"].get("stdout", ""), "3: no annotations")
        ok("2 findings in the baseline are not shown." in r["summary"], "3: summary mentions the baseline", r["summary"])
        ok(r["outputs"]["sarif-file"] == "", "3: no SARIF unless asked")
        with open(os.path.join(ws, "src", "b.ts"), "w") as f:
            f.write(A_TS.replace("userId", "uid"))
        r = runner.run(ws, {"paths": "src", "baseline": ".keylint-baseline.json"}, cache_hit="true")
        ok(r["failed"] and r["outputs"]["errors"] == "1", "3: a new finding fails", show(r))
        ok("file=src/b.ts" in r["steps"]["lint"].get("stdout", "") and
           "file=src/a.ts" not in r["steps"]["lint"].get("stdout", ""), "3: only the new finding annotated")

        # ---- 4. fail-on, text format, clean projects -----------------------------
        ws = workspace(tmp, "ws4", {"src/w.ts": WARN_TS})
        r = runner.run(ws, {"paths": "src", "format": "text"}, cache_hit="true")
        ok(not r["failed"], "4: warnings pass by default", show(r))
        ok(r["outputs"]["warnings"] == "1" and r["outputs"]["errors"] == "0", "4: text format counts", str(r["outputs"]))
        ok("::" not in r["steps"]["lint"].get("stdout", ""), "4: text format: no annotations")
        ok(r["summary"] == "", "4: text format: no job summary", r["summary"])
        r = runner.run(ws, {"paths": "src", "fail-on": "warning"}, cache_hit="true")
        ok(r["failed"] and r["order"][-1]["rc"] == 1, "4: fail-on warning fails", show(r))
        ws = workspace(tmp, "ws5", {"src/clean.ts": CLEAN_TS})
        r = runner.run(ws, {}, cache_hit="true")
        ok(not r["failed"] and r["outputs"]["errors"] == "0", "4: a clean project passes", show(r))
        ok("No findings in 1 file." in r["summary"], "4: clean summary", r["summary"])

        # ---- 5. inputs are data, never code ------------------------------------------
        ws = workspace(tmp, "ws6", {"src/clean.ts": CLEAN_TS})
        evil = "src $(touch PWNED1) `touch PWNED2` ;touch PWNED3"
        r = runner.run(ws, {"paths": evil, "config": "$(touch PWNED4)", "format": "$(touch PWNED5)",
                            "design-diff": "$(touch PWNED6)"},
                       cache_hit="true")
        pwned = [f for f in os.listdir(ws) if f.startswith("PWNED")]
        pwned += [f for f in os.listdir(os.path.join(ws, "src")) if f.startswith("PWNED")]
        ok(not pwned, "5: no input was executed", str(pwned))
        ok(r["failed"] and r["order"][-1]["rc"] == 2, "5: bad inputs are a usage error (exit 2)", show(r))

        # ---- 6. a pull request: the key design changes in the job summary -------
        design_diff(runner, tmp)

        # ---- 7. npm mode: the packed tarballs, or a version from a registry -------
        if npm_dist and os.path.isdir(npm_dist):
            npm_mode(runner, tmp, root, npm_dist, action_path)
        else:
            print("npm mode not tested: no npm tarballs (scripts/npm-pack; scripts/setup --cross-arm64)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"{PASSED} passed, {FAILED} failed")
    return 0 if FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
