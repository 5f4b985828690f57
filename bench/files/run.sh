#!/usr/bin/env bash
# Files (docs/perf.md, "Files"): 1 GiB through Tessel's load and save, against np.load of the
# same data as .npy and the disk's sequential write rate by dd, in the same run.
#   bench/files/run.sh [MiB] [DIR]     (defaults: 1024, a new folder under $TMPDIR)
# Each round: Tessel saves w.safetensors and w.npy (each save fsyncs); dd writes as many bytes
# with conv=fsync; then both loads run with the files evicted from the page cache
# (posix_fadvise DONTNEED, no root needed: "cold") and again with them cached ("warm").
set -euo pipefail
cd "$(dirname "$0")/../.."
mib=${1:-1024}
dir=${2:-$(mktemp -d "${TMPDIR:-/tmp}/tessel-files.XXXXXX")}
tessel=${TESSEL:-build/repl/tessel}
python=/usr/bin/python3
rounds=${ROUNDS:-3}
trap 'rm -f "$dir"/w.safetensors "$dir"/w.npy "$dir"/dd.bin' EXIT
evict() {
  $python -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' "$@"
}
echo "# $mib MiB in $dir; $(nproc) cpus; $(uname -r)"
for round in $(seq "$rounds"); do
  echo "## round $round"
  "$tessel" --allow-files "$dir" bench/files/save.dsl "$dir" "$mib"
  t0=$(date +%s.%N)
  dd if=/dev/zero of="$dir/dd.bin" bs=1M count="$mib" conv=fsync status=none
  t1=$(date +%s.%N)
  echo "dd $mib MiB conv=fsync $(echo "($t1 - $t0) * 1000" | bc -l | xargs printf '%.1f') ms" \
    "$(echo "$mib / ($t1 - $t0)" | bc -l | xargs printf '%.1f') MiB/s"
  rm -f "$dir/dd.bin"
  for cache in cold warm; do
    [ "$cache" = cold ] && evict "$dir/w.safetensors" "$dir/w.npy"
    echo "$cache: $("$tessel" bench/files/load.dsl "$dir" w.safetensors)"
    [ "$cache" = cold ] && evict "$dir/w.safetensors" "$dir/w.npy"
    echo "$cache: $("$tessel" bench/files/load.dsl "$dir" w.npy)"
    [ "$cache" = cold ] && evict "$dir/w.safetensors" "$dir/w.npy"
    echo "$cache: $(OPENBLAS_NUM_THREADS=1 $python bench/files/np_load.py "$dir")"
  done
done
