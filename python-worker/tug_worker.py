# Entry point of tug's Python worker: JSON lines over stdio, started by lib/python/worker.ts with the resolved interpreter.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tugworker.protocol import serve  # noqa: E402

# The analysis walks syntax trees recursively: a 500-term `a + b + …` chain, which CPython compiles, is 500 nested
# nodes. A deeper limit needs a deeper C stack, so the worker serves from a thread with a large one.
RECURSION_LIMIT = 50_000
STACK_BYTES = 512 * 1024 * 1024


def main():
    import threading

    result = []
    threading.stack_size(STACK_BYTES)
    sys.setrecursionlimit(RECURSION_LIMIT)
    thread = threading.Thread(target=lambda: result.append(serve(sys.stdin, sys.stdout)), name="tug-worker")
    thread.start()
    thread.join()
    return result[0] if result else 1


if __name__ == "__main__":
    sys.exit(main())
