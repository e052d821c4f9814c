# Alternating A/B of cold `analyze-impact rename-symbol` runs between tug builds (issue 33): what every perf step's
# "before and after alternating" figures come from. Each run: `tug clean --cache`, then the analysis with
# TUG_TIMINGS=1; it reports wall, CPU of the process tree, Node's CPU at "ran" and the parse phase, medians per build,
# and whether the answers are byte-identical between the builds.
#
#   python3 tests/bench/cold-ab.py BUILD_A,BUILD_B pytest|stdlib|combined PAIRS [rt]
#
# A build is a folder holding bin/tug and its dist/ (e.g. a `git archive` of the commit before, built, with
# node_modules linked). The repositories are the ones tests/bench/python-floor.mjs makes under /tmp/tug-bench.
# `rt` runs tug under `chrt -f 20` (root only): the other processes of a busy machine then wait, but tug's own
# processes never share a core with each other (equal SCHED_FIFO priorities do not time-slice), which favours a
# change with less parallel work; without it, the wall time is the machine's load as much as tug's.
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SUBJECTS = {
    "pytest": ("/tmp/tug-bench/py-python3-pytest-7.2.1-2", "_pytest/_code/code.py:1220:5", "source_location"),
    "stdlib": ("/tmp/tug-bench/py-python3.11-stdlib", "tempfile.py:460:5", "make_temp_file"),
    "combined": ("/tmp/tug-bench/py-python3.11-with-dist-packages", "tempfile.py:460:5", "make_temp_file"),
}


def run(build, repo, args, env, rt):
    command = (["chrt", "-f", "20"] if rt else []) + [os.path.join(build, "bin", "tug")] + args
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(done.stderr.decode()[-3000:])
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return wall, cpu, done.stdout, done.stderr.decode()


def mark(marks, label):
    """Milliseconds since Node started at the first timing mark containing `label`."""
    return next((float(m.split()[2]) for m in marks if label in m), None)


def main():
    builds = sys.argv[1].split(",")
    repo, at, to = SUBJECTS[sys.argv[2]]
    pairs = int(sys.argv[3])
    rt = len(sys.argv) > 4 and sys.argv[4] == "rt"
    runs = {b: [] for b in builds}
    answers = {}
    # Each build its own V8 code cache: a cache made by another build is refused and rewritten every run.
    caches = {b: tempfile.mkdtemp(prefix="tug-ab-cache-") for b in builds}
    for i in range(pairs):
        for build in builds if i % 2 == 0 else builds[::-1]:
            env = dict(os.environ, TUG_NO_DAEMON="1", XDG_CACHE_HOME=caches[build])
            env.pop("NODE_EXTRA_CA_CERTS", None)
            run(build, repo, ["clean", "--cache", "--json"], env, rt)
            env["TUG_TIMINGS"] = "1"
            wall, cpu, out, err = run(build, repo, ["analyze-impact", "rename-symbol", "--at", at, "--to", to, "--json"], env, rt)
            marks = [line for line in err.splitlines() if line.startswith("tug timing ")]
            parsing, parsed = mark(marks, "python: parsing"), mark(marks, "python: parsed")
            runs[build].append({"wall": wall, "cpu": cpu, "parse": parsed - parsing if parsing and parsed else None, "ran": float(marks[-1].split()[2]), "node": float(marks[-1].split()[4])})
            answer = json.loads(out)
            for volatile in ("timings", "durations"):
                answer.pop(volatile, None)
            answers.setdefault(build, set()).add(json.dumps(answer, sort_keys=True))
    print("load average %.1f after %d pairs%s" % (os.getloadavg()[0], pairs, " under chrt -f 20" if rt else ""))
    for build in builds:
        rows = runs[build]
        med = lambda key: statistics.median(r[key] for r in rows if r[key] is not None)
        low = lambda key: min(r[key] for r in rows if r[key] is not None)
        print("%s: wall %.0f (min %.0f)  CPU %.0f (min %.0f)  parse phase %.0f  ran %.0f  Node CPU %.0f ms" % (build, med("wall"), low("wall"), med("cpu"), low("cpu"), med("parse"), med("ran"), med("node")))
        print("   CPU per run: " + " ".join("%.0f" % r["cpu"] for r in rows))
    distinct = set().union(*answers.values())
    print("answers byte-identical" if len(distinct) == 1 else "ANSWERS DIFFER (%d distinct)" % len(distinct))
    for cache in caches.values():
        subprocess.run(["rm", "-rf", cache])


if __name__ == "__main__":
    main()
