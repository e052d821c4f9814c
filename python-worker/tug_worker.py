# Entry point of tug's Python worker: JSON lines over stdio, started by lib/python/worker.ts with the resolved interpreter.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tugworker.protocol import serve  # noqa: E402

if __name__ == "__main__":
    sys.exit(serve(sys.stdin, sys.stdout))
