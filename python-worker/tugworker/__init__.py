# Package of tug's Python worker: the stdio protocol and the per-file facts extractor.
