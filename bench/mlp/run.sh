#!/bin/bash
# The MLP training comparison: bench/mlp/train.dsl compiled and eager against
# bench/mlp/train.py (PyTorch eager), on 1 and 2 threads (bench/train_compare.sh).
#   bench/mlp/run.sh [path/to/tessel] [runs]
# TESSEL_MLP_OPT=adam (exported) runs both with Adam instead of SGD.
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../train_compare.sh" "$here" TESSEL_MLP_EAGER "${1:-$here/../../build/repl/tessel}" "${2:-3}"
