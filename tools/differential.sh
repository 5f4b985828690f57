#!/bin/sh
# Run the differential tester (tests/torch/differential.py) on many more seeds than CI does.
# Usage: tools/differential.sh [SEEDS] [DEVICES] [TESSEL]
#   SEEDS    A:B (default 0:5000)     DEVICES  cpu,tpu,vulkan (default cpu,tpu)
#   TESSEL   the binary (default build/repl/tessel; copy it first if you rebuild meanwhile)
# Needs PyTorch 1.13 in /usr/bin/python3. Mismatches print as golden scripts to paste.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=${1:-0:5000}
devices=${2:-cpu,tpu}
tessel=${3:-$root/build/repl/tessel}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp} LP_NUM_THREADS=${LP_NUM_THREADS:-0}
exec /usr/bin/python3 "$root/tests/torch/differential.py" "$tessel" --seeds "$seeds" \
  --devices "$devices" --verbose
