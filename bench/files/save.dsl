# Saves a tensor of args[1] MiB (f32) to DIR/w.safetensors and DIR/w.npy and prints each
# save's time and rate: bench/files/run.sh (docs/perf.md, "Files").
let dir = args[0]
let mib = int(args[1])
let x = ones([mib * 262144]) * 0.5
for (name, value) in [("w.safetensors", {"w": x}), ("w.npy", x)] {
  let t0 = now_ms()
  save(dir + "/" + name, value)
  let ms = now_ms() - t0
  print("save", name, round(ms, 1), "ms", round(mib / (ms / 1000.0), 1), "MiB/s")
}
