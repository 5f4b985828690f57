#!/bin/bash
# The transformer training comparison: bench/transformer/train.dsl (Adam, real text) compiled and
# eager against bench/transformer/train.py (PyTorch eager), on 1 and 2 threads
# (bench/train_compare.sh).
#   bench/transformer/run.sh [path/to/tessel] [runs]
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../train_compare.sh" "$here" TESSEL_TF_EAGER "${1:-$here/../../build/repl/tessel}" "${2:-3}"
