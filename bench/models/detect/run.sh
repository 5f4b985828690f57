#!/bin/bash
# The detection comparison: bench/models/detect/train.dsl compiled and eager against
# bench/models/detect/train.py (PyTorch and torchvision), on 1 and 2 threads (bench/train_compare.sh).
#   bench/models/detect/run.sh [path/to/tessel] [runs]
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../train_compare.sh" "$here" TESSEL_DETECT_EAGER "${1:-$here/../../../build/repl/tessel}" "${2:-3}"
