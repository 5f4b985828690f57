# np.load of DIR/w.npy: the time of the load, the resident memory it added, and of a first sum
# (bench/files/run.sh; the NumPy side of docs/perf.md, "Files").
import sys, time
import numpy as np

def rss_mib():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024.0

before = rss_mib()
t0 = time.perf_counter()
x = np.load(sys.argv[1] + '/w.npy')
t1 = time.perf_counter()
after = rss_mib()
total = float(x.sum(dtype=np.float64))
t2 = time.perf_counter()
print(f'numpy load w.npy {(t1 - t0) * 1e3:.2f} ms, rss + {after - before:.1f} MiB; first sum '
      f'{(t2 - t1) * 1e3:.1f} ms, rss + {rss_mib() - before:.1f} MiB')
