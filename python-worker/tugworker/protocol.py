# The worker's side of the JSON-lines protocol: a ready line, then one response per request, errors as data, never a crash.
import gc
import json
import os
import sys

from tugworker.facts import SourceSyntaxError, extract_facts

PROTOCOL = 1


def site_packages():
    """The interpreter's site-packages folders, found without running site (the worker starts with -S).

    site.main() would also run every .pth file there, which is code the user never asked tug to run; the worker
    itself needs only the standard library, and these folders only to find LibCST.
    """
    import site

    prefixes = [sys.prefix, sys.exec_prefix]
    if sys.prefix != sys.base_prefix and _includes_system_site():
        prefixes += [sys.base_prefix, sys.base_exec_prefix]
    return [folder for folder in dict.fromkeys(site.getsitepackages(prefixes)) if os.path.isdir(folder)]


def _includes_system_site():
    try:
        with open(os.path.join(sys.prefix, "pyvenv.cfg"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return False
    return any(line.replace(" ", "").lower() == "include-system-site-packages=true" for line in lines)


def libcst_version():
    """LibCST's version without importing it (an import costs ~0.5 s; facts never need it)."""
    import importlib.machinery
    import re

    try:
        spec = importlib.machinery.PathFinder.find_spec("libcst", site_packages())
    except Exception:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = os.path.dirname(list(spec.submodule_search_locations)[0])
    for entry in sorted(os.listdir(folder)):
        match = re.match(r"libcst-([^-]+)\.(dist|egg)-info$", entry)
        if match:
            return match.group(1)
    return "unknown"


def _traceback():
    # Imported on a bug only: traceback pulls in linecache and tokenize, ~3 ms of every worker's start (issue 33 step 18).
    import traceback

    return traceback.format_exc()


def _error(code, message, details=None):
    return {"code": code, "message": message, "details": details or {}}


def _facts(path, content):
    try:
        return {"path": path, "ok": True, "facts": extract_facts(content)}
    except SourceSyntaxError as error:
        return {"path": path, "ok": False, "error": _error("SyntaxError", error.message, {"file": path, "line": error.line, "col": error.col})}


def _rewrite_check(path, content):
    for folder in site_packages():
        if folder not in sys.path:
            sys.path.append(folder)
    try:
        import libcst
    except Exception:
        raise WorkerError("LibCSTNotAvailable", "libcst is not importable", {"python": sys.executable})
    try:
        module = libcst.parse_module(content)
    except Exception as error:
        raise WorkerError("SyntaxError", str(error).splitlines()[0] if str(error) else "parse error", {"file": path})
    return {"ok": module.code == content}


def _compile_check(files):
    """Whether every file compiles, exactly as the syntax verification's own script compiles it (lib/verify/python.ts):
    a running worker answers a passing check without a new interpreter. Any failure is reported by that script, so its
    report stays the one wording of syntax errors; warnings the compiler gives (SyntaxWarning) change nothing there."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in files:
            try:
                with open(name, "rb") as handle:
                    compile(handle.read(), name, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                return {"ok": False}
    return {"ok": True}


LOCAL_REFACTORS = ("extract_variable", "extract_function", "inline_local")


def _local_refactor(op, request):
    """A single-file refactor: its edits, or why it refuses (as data: a refusal is an answer, not a worker failure)."""
    from tugworker.local_edits import Refused

    try:
        if op == "extract_variable":
            from tugworker.extract_variable import extract_variable

            return extract_variable(request["content"], request["start"], request["end"], request["name"], bool(request.get("all")), bool(request.get("strict")))
        if op == "extract_function":
            from tugworker.extract_function import extract_function

            return extract_function(request["content"], request["start"], request["end"], request["name"])
        from tugworker.inline_local import inline_local

        return inline_local(request["content"], request["offset"], request.get("target_python"), bool(request.get("strict")))
    except Refused as refusal:
        return {"refused": _error(refusal.code, refusal.message, refusal.details)}


def _project_refactor(run, request):
    """A refactor over several files (move-symbol, inline of a function): its answer, or its refusal as data."""
    from tugworker.local_edits import Refused

    try:
        return run(request)
    except Refused as refusal:
        return {"refused": _error(refusal.code, refusal.message, refusal.details)}


class WorkerError(Exception):
    def __init__(self, code, message, details=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


def handle(request):
    op = request.get("op")
    if op == "ping":
        return {"pong": True}
    if op == "facts":
        result = _facts(request.get("path", "<string>"), request["content"])
        if not result["ok"]:
            raise WorkerError(result["error"]["code"], result["error"]["message"], result["error"]["details"])
        return result["facts"]
    if op == "compile_check":
        return _compile_check(request["files"])
    if op == "rewrite_check":
        return _rewrite_check(request.get("path", "<string>"), request["content"])
    if op == "signature_sites":
        from tugworker.signature_sites import signature_sites

        return signature_sites(request["content"], request["offsets"])
    if op == "signature_texts":
        from tugworker.signature_texts import signature_texts

        return signature_texts(request["texts"])
    if op == "fit_fstrings":
        from tugworker.fstrings import fit_edits

        return _project_refactor(fit_edits, request)
    if op in LOCAL_REFACTORS:
        return _local_refactor(op, request)
    if op == "organize_imports":
        from tugworker.organize_imports import organize_imports

        return organize_imports(request)
    if op == "move_symbol":
        from tugworker.move_symbol import move_symbol

        return _project_refactor(move_symbol, request)
    if op == "inline_function":
        from tugworker.inline_function import inline_function

        return _project_refactor(inline_function, request)
    raise WorkerError("UnknownOperation", "unknown op %r" % (op,))


_encode = json.JSONEncoder(separators=(",", ":")).encode
# Facts are trees of fresh dicts and lists, never a cycle: the encoder's check for one (a dict insert and removal per
# container) was ~15% of encoding them (docs/PERFORMANCE.md, issue 33 step 16). Same bytes.
_encode_facts = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def facts_batch_reply(request_id, files):
    """The answer to facts_batch as its JSON line, written piece by piece so that it can say where each file's facts
    lie in it (`facts_spans`, character offsets; null for a file that does not parse): the client keeps that text
    for its facts cache instead of serialising the parsed facts again (~0.4 s of Node for 100 files). The line is
    ASCII (non-ASCII is escaped), so its offsets are the same counted in bytes, code points or UTF-16 units.

    The cycle collector is paused meanwhile: a file's syntax tree and facts are hundreds of thousands of objects,
    and each collection the allocations trigger walks all of them (a quarter of the batch's CPU) to find no cycle;
    a file's objects are freed by their reference counts once its facts are written."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _facts_batch_reply(request_id, files)
    finally:
        if was_enabled:
            gc.enable()


def _facts_batch_reply(request_id, files):
    parts = ['{"id":%s,"ok":true,"result":{"results":[' % _encode(request_id)]
    at = len(parts[0])
    spans = []
    for index, (head, facts) in enumerate(_entries(files)):
        if index:
            parts.append(",")
            at += 1
        parts.append(head)
        at += len(head)
        if facts is None:
            spans.append(None)
            continue
        spans.append([at, at + len(facts)])
        parts += [facts, "}"]
        at += len(facts) + 1
    parts.append('],"facts_spans":%s}}' % _encode(spans))
    return "".join(parts)


def _entry(f):
    """One file's part of the reply: its JSON up to its facts and the facts' JSON, or its whole JSON and None when
    it does not parse."""
    result = _facts(f.get("path", "<string>"), f["content"])
    if result["ok"]:
        return '{"path":%s,"ok":true,"facts":' % _encode(result["path"]), _encode_facts(result["facts"])
    return _encode(result), None


# A batch is shared with a forked copy of the worker when both halves hold at least this much source (its facts take
# ~15 ms). The copy starts no interpreter and imports nothing, but builds its own working set: page faults that cost it
# ~10-25 ms of CPU for a half of 100 KB, which a wall-time gain pays for only on a core that would otherwise idle.
SHARE_CHARS = 32 * 1024


def _entries(files):
    """Every file's entry, in order. With a spare core, a forked copy of this process builds about half of them
    while this one builds the rest (docs/PERFORMANCE.md, issue 33 step 27): the facts are the worker's CPU-bound part
    and Python runs them on one core. Whatever goes wrong in the copy (or here, while it runs) makes the batch run
    again here alone, in order, so a reply or an error is always the one a single process gives."""
    halves = _halves(files)
    if halves is None:
        return [_entry(f) for f in files]
    mine, theirs = halves
    child = _Copy.start([files[i] for i in theirs])
    if child is None:
        return [_entry(f) for f in files]
    try:
        entries = {i: _entry(files[i]) for i in mine}
    except BaseException:
        child.discard()
        return [_entry(f) for f in files]
    shared = child.result()
    if shared is None or len(shared) != len(theirs):
        return [_entry(f) for f in files]
    entries.update(zip(theirs, shared))
    return [entries[i] for i in range(len(files))]


def _halves(files):
    """Two sets of file indexes with about the same source each (largest first, each to the lighter side), or None
    when the batch is too small to share or there is no core to share it with."""
    if len(files) < 2 or not _spare_core():
        return None
    sizes = [len(f["content"]) for f in files]
    if sum(sizes) < 2 * SHARE_CHARS:
        return None
    sides, loads = ([], []), [0, 0]
    for i in sorted(range(len(files)), key=lambda i: -sizes[i]):
        side = 0 if loads[0] <= loads[1] else 1
        sides[side].append(i)
        loads[side] += sizes[i]
    if min(loads) < SHARE_CHARS:
        return None
    return sorted(sides[0]), sorted(sides[1])


_cores = None


def _spare_core():
    global _cores
    if _cores is None:
        try:
            _cores = len(os.sched_getaffinity(0)) if hasattr(os, "fork") and sys.platform.startswith("linux") else 1
        except OSError:
            _cores = 1
    return _cores > 1


class _Copy:
    """A forked copy of the worker building some files' entries, sent back through a pipe (marshal: both sides are
    this same interpreter)."""

    def __init__(self, pid, fd):
        self.pid, self.fd = pid, fd

    @staticmethod
    def start(files):
        import marshal

        try:
            read_fd, write_fd = os.pipe()
        except OSError:
            return None
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # the copy: build, send, and leave without running any of the parent's exit handlers
            status = 1
            try:
                os.close(read_fd)
                data = marshal.dumps([_entry(f) for f in files])
                status = 0
            except BaseException:
                data = marshal.dumps(None)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(write_fd, view):]
            finally:
                os._exit(status)
        os.close(write_fd)
        return _Copy(pid, read_fd)

    def result(self):
        import marshal

        chunks = []
        try:
            while True:
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(self.fd)
            _, status = os.waitpid(self.pid, 0)
        if status != 0:
            return None
        try:
            return marshal.loads(b"".join(chunks))
        except (EOFError, ValueError, TypeError):
            return None

    def discard(self):
        import signal

        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        os.close(self.fd)
        os.waitpid(self.pid, 0)


def serve(stdin, stdout):
    def write(line):
        stdout.write(line + "\n")
        stdout.flush()

    def send(message):
        write(_encode(message))

    send({"type": "ready", "protocol": PROTOCOL, "python": "%d.%d.%d" % sys.version_info[:3], "libcst": libcst_version(), "pid": os.getpid(), "executable": sys.executable})
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("a request is a JSON object")
        except ValueError as error:
            send({"id": None, "ok": False, "error": _error("BadRequest", str(error))})
            continue
        request_id = request.get("id")
        if request.get("op") == "shutdown":
            send({"id": request_id, "ok": True, "result": {"bye": True}})
            return 0
        try:
            if request.get("op") == "facts_batch":
                write(facts_batch_reply(request_id, request.get("files", [])))
                continue
            send({"id": request_id, "ok": True, "result": handle(request)})
        except WorkerError as error:
            send({"id": request_id, "ok": False, "error": _error(error.code, error.message, error.details)})
        except RecursionError:
            # Deeper than even the raised limit (tug_worker.py): a limit of the worker, not a bug.
            send({"id": request_id, "ok": False, "error": _error("NestingTooDeep", "the code nests deeper than tug's analysis follows", {"limit": "nesting depth", "max": sys.getrecursionlimit()})})
        except Exception as error:  # a bug in the worker must not take the process down
            send({"id": request_id, "ok": False, "error": _error("InternalError", repr(error), {"traceback": _traceback()})})
    return 0
