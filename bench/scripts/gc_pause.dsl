# Pauses of the cycle collector over a heap of a million containers (docs/perf.md, "Cycle
# collector"): the longest automatic pause while the million are made (old-generation
# collections as they are promoted, in steps of config.gc_increment containers: Note
# [Incremental old generation]), then while a loop makes cycles and keeps one record in four
# beside the million (so the old generation keeps coming due), then gc() of everything at
# once and a young collection beside the million. GC_INCREMENT=0 collects the old generation
# at once. Prints each in ms (wall, and CPU time: the machine's load does not count).
config.gc_increment = int(env("GC_INCREMENT", "20000"))
let heap = [[i] for i in range(1000000)]    # 1,000,001 tracked lists
let build = stats()["gc"]
print("building: max pause ms", round(build["max_pause_ms"], 3), "cpu", round(build["max_pause_cpu_ms"], 3), "collections by generation",
      build["collections_by_generation"])
let keep = []
let before = stats()["gc"]
let t = now_ms()
for i in range(1200000) {
  let d = {"i": i}
  d["self"] = d
  if i % 4 == 0 { keep.append([i]) }
}
let churn_ms = now_ms() - t
let s = stats()["gc"]
print("churn: max pause ms", round(s["max_pause_ms"], 3), "cpu", round(s["max_pause_cpu_ms"], 3), "incremental", s["incremental"], "collections by generation",
      s["collections_by_generation"], "freed", s["freed"] - before["freed"], "ms", round(churn_ms))
t = now_ms()
gc()
print("gc() of all at once ms", round(now_ms() - t, 3))
t = now_ms()
gc(0)
print("young collection ms", round(now_ms() - t, 3))
print("tracked", stats()["gc"]["tracked"])
