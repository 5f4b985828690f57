#!/bin/bash
# The CNN comparison: bench/models/digits/train.dsl compiled and eager against
# bench/models/digits/train.py (PyTorch eager), on 1 and 2 threads (bench/train_compare.sh).
#   bench/models/digits/run.sh [path/to/tessel] [runs]
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../train_compare.sh" "$here" TESSEL_DIGITS_EAGER "${1:-$here/../../../build/repl/tessel}" "${2:-3}"
