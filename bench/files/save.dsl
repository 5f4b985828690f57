# Saves a tensor of args[1] MiB (f32) to DIR/w.safetensors and DIR/w.npy, in that order or,
# with args[2] == "npy-first", the other, and prints each save's time and rate:
# bench/files/run.sh (docs/perf.md, "Files").
let dir = args[0]
let mib = int(args[1])
let x = ones([mib * 262144]) * 0.5
let saves = [("w.safetensors", {"w": x}), ("w.npy", x)]
if len(args) > 2 and args[2] == "npy-first" { saves = [saves[1], saves[0]] }
for (name, value) in saves {
  let t0 = now_ms()
  save(dir + "/" + name, value)
  let ms = now_ms() - t0
  print("save", name, round(ms, 1), "ms", round(mib / (ms / 1000.0), 1), "MiB/s")
}
