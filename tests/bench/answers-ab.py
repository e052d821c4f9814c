# Whether two tug builds give the same rename answers (issue 33): a change to the facts or their format must not move
# one byte of any analysis. For every top-level function and class of the modules named (with `methods`: every method
# and nested class of their classes, dunder names left out), a cold `analyze-impact rename-symbol` (facts cache emptied
# first) with each build, the builds alternating; prints the positions whose JSON answers differ (timings left out) and
# writes each pair to a folder for reading.
#
#   python3 tests/bench/answers-ab.py BUILD_A,BUILD_B REPO MODULE.py[,MODULE.py…] [LIMIT_PER_MODULE] [methods]
#
# A build is a folder holding bin/tug and its dist/ (see cold-ab.py). REPO is a git repository such as the ones
# tests/bench/python-floor.mjs makes under /tmp/tug-bench; MODULE paths are relative to it.
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile

KEYWORD_WIDTH = {"FunctionDef": len("def "), "AsyncFunctionDef": len("async def "), "ClassDef": len("class ")}


def positions(repo, module, limit, methods):
    """`file:line:col` of each top-level definition's name, or each class member's (the name follows its keyword and
    one space)."""
    with open(os.path.join(repo, module), "rb") as handle:
        tree = ast.parse(handle.read())
    nodes = [m for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body if not getattr(m, "name", "__").startswith("__")] if methods else tree.body
    found = []
    for node in (n for n in nodes if hasattr(n, "name")):
        width = KEYWORD_WIDTH.get(type(node).__name__)
        if width is not None and len(found) < limit:
            found.append(("%s:%d:%d" % (module, node.lineno, node.col_offset + width + 1), node.name))
    return found


def answer(build, repo, cache, at, to):
    env = dict(os.environ, TUG_NO_DAEMON="1", XDG_CACHE_HOME=cache)
    env.pop("NODE_EXTRA_CA_CERTS", None)
    tug = os.path.join(build, "bin", "tug")
    subprocess.run([tug, "clean", "--cache", "--json"], cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = subprocess.run([tug, "analyze-impact", "rename-symbol", "--at", at, "--to", to, "--json"], cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        parsed = json.loads(done.stdout)
    except ValueError:
        return {"no JSON answer": done.stderr.decode(errors="replace")[-2000:]}
    for volatile in ("timings", "durations"):
        parsed.pop(volatile, None)
    return parsed


def main():
    builds = sys.argv[1].split(",")
    repo, modules = sys.argv[2], sys.argv[3].split(",")
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 10**9
    methods = len(sys.argv) > 5 and sys.argv[5] == "methods"
    caches = {b: tempfile.mkdtemp(prefix="tug-answers-cache-") for b in builds}
    out = tempfile.mkdtemp(prefix="tug-answers-diff-")
    same = differ = 0
    try:
        for i, (at, name) in enumerate(p for m in modules for p in positions(repo, m, limit, methods)):
            order = builds if i % 2 == 0 else builds[::-1]
            answers = {b: answer(b, repo, caches[b], at, name + "_renamed") for b in order}
            if len({json.dumps(a, sort_keys=True) for a in answers.values()}) == 1:
                same += 1
                continue
            differ += 1
            with open(os.path.join(out, "%d.json" % differ), "w") as handle:
                json.dump({"at": at, "answers": answers}, handle, indent=1, sort_keys=True)
            print("DIFFER %s (%s)" % (at, name), flush=True)
    finally:
        for cache in caches.values():
            shutil.rmtree(cache, ignore_errors=True)
    print("%d positions: %d identical, %d differ%s" % (same + differ, same, differ, " (pairs in %s)" % out if differ else ""))
    if not differ:
        os.rmdir(out)


if __name__ == "__main__":
    main()
