# Pauses of the cycle collector over a heap of a million containers (docs/perf.md, "Cycle
# collector"): a full collection of them, a young collection beside them, and the longest
# pause while a loop makes cycles with the million alive. Prints each in ms.
let heap = [[i] for i in range(1000000)]    # 1,000,001 tracked lists
gc()                                       # into the old generation
let t = now_ms()
gc()
let full = now_ms() - t
t = now_ms()
gc(0)
let young = now_ms() - t
let before = stats()["gc"]
for i in range(300000) {
  let d = {"i": i}
  d["self"] = d
}
let s = stats()["gc"]
print("tracked", s["tracked"])
print("churn collections", s["collections"] - before["collections"], "by generation",
      s["collections_by_generation"], "freed", s["freed"] - before["freed"])
print("full ms", full)
print("young ms", young)
print("max pause ms", s["max_pause_ms"])
