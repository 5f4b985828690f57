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
rounds=${ROUNDS:-5}
log=$(mktemp)
trap 'rm -f "$dir"/w.safetensors "$dir"/w.npy "$dir"/dd.bin "$dir"/dd.tmp "$log"' EXIT
evict() {
  $python -c 'import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' "$@"
}
echo "# $mib MiB in $dir; $(nproc) cpus; $(uname -r)"
# This machine's disk stalls for seconds now and then (dd included), so every figure is taken
# in each of the rounds and the summary gives the median and the best of each.
for round in $(seq "$rounds"); do
  echo "## round $round"
  # Which file is saved first alternates: the first save of a round was often the slow one.
  order=safetensors-first
  [ $((round % 2)) = 0 ] && order=npy-first
  "$tessel" --allow-files "$dir" bench/files/save.dsl "$dir" "$mib" "$order"
  t0=$(date +%s.%N)
  # As a save does: a new file, synced, renamed over the last round's.
  dd if=/dev/zero of="$dir/dd.tmp" bs=1M count="$mib" conv=fsync status=none
  mv "$dir/dd.tmp" "$dir/dd.bin"
  t1=$(date +%s.%N)
  echo "dd $mib MiB conv=fsync $(echo "($t1 - $t0) * 1000" | bc -l | xargs printf '%.1f') ms" \
    "$(echo "$mib / ($t1 - $t0)" | bc -l | xargs printf '%.1f') MiB/s"
  for cache in cold warm; do
    [ "$cache" = cold ] && evict "$dir/w.safetensors" "$dir/w.npy"
    echo "$cache: $("$tessel" bench/files/load.dsl "$dir" w.safetensors)"
    [ "$cache" = cold ] && evict "$dir/w.safetensors" "$dir/w.npy"
    echo "$cache: $("$tessel" bench/files/load.dsl "$dir" w.npy)"
    [ "$cache" = cold ] && evict "$dir/w.safetensors" "$dir/w.npy"
    echo "$cache: $(OPENBLAS_NUM_THREADS=1 $python bench/files/np_load.py "$dir")"
  done
done | tee "$log"
echo "## summary over $rounds rounds: median / best (ms)"
sed -E 's/ rss \+ [0-9.]+ MiB//g' "$log" | awk '
  /^save / { add($1 " " $2, $3) }
  /^dd / { add("dd", $5) }
  /^(cold|warm): / { k = $1 " " $2 " " $3 " " $4; add(k " load", $5); add(k " first sum", $(NF - 1)) }
  function add(k, v) { if (!(k in n)) order[++keys] = k; vals[k, ++n[k]] = v + 0 }
  END {
    for (i = 1; i <= keys; i++) {
      k = order[i]; m = n[k]
      for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++)
        if (vals[k, b] < vals[k, a]) { t = vals[k, a]; vals[k, a] = vals[k, b]; vals[k, b] = t }
      med = m % 2 ? vals[k, (m + 1) / 2] : (vals[k, m / 2] + vals[k, m / 2 + 1]) / 2
      printf "%-40s %10.1f %10.1f\n", k, med, vals[k, 1]
    }
  }'
