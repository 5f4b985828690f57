# Loads DIR/FILE and prints the time of load() itself, the resident memory it added, and the
# time of a first pass over the data (which faults the mapping's pages in): bench/files/run.sh.
let path = args[0] + "/" + args[1]
fn rss_mib() {
  for line in read_lines("/proc/self/status") {
    if line.startswith("VmRSS:") { return int(line.split()[1]) / 1024.0 }
  }
}
let before = rss_mib()
let t0 = now_ms()
let value = load(path)
let t1 = now_ms()
let after = rss_mib()
let x = value["w"] if args[1].endswith(".safetensors") else value
let total = x.sum().item()
let t2 = now_ms()
print("tessel load", args[1], round(t1 - t0, 2), "ms, rss +", round(after - before, 1), "MiB; first sum", round(t2 - t1, 1), "ms, rss +", round(rss_mib() - before, 1), "MiB")
