#!/bin/bash
# The GCN comparison: bench/models/gcn/train.dsl compiled and eager against
# bench/models/gcn/train.py (PyTorch eager, index_add_), on 1 and 2 threads (bench/train_compare.sh).
#   bench/models/gcn/run.sh [path/to/tessel] [runs]
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../train_compare.sh" "$here" TESSEL_GCN_EAGER "${1:-$here/../../../build/repl/tessel}" "${2:-3}"
