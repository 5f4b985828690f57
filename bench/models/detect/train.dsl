# The detection benchmark: post-processing of 10,000 candidate boxes (score threshold,
# top 1,000, nms at IoU 0.5, the best 100 kept) compiled once, against PyTorch's threshold and
# topk plus torchvision.ops.nms (bench/models/detect/train.py; bench/models/detect/run.sh runs
# both). Boxes and scores come from the same integer formulas on both sides. Prints the mean time
# of a call over calls 20..STEPS-1, the compile count and how many boxes were kept.
# TESSEL_DETECT_EAGER=1 runs it eagerly.
let steps = int(env("STEPS", "220"))
let N = 10000

let i = arange(N)
let cx = ((i * 7919) % 1009).to(f32) / 1009.0 * 800.0
let cy = ((i * 104729) % 997).to(f32) / 997.0 * 600.0
let w = 20.0 + ((i * 31) % 61).to(f32)
let h = 20.0 + ((i * 17) % 53).to(f32)
let boxes = stack([cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0], dim = 1)
let scores = ((i * 7001) % 10007).to(f32) / 10007.0

fn postprocess(boxes, scores) {
  let keep = nonzero(scores > 0.05).squeeze(1)
  let (top, order) = topk(index_select(scores, 0, keep), min(1000, keep.shape[0]))
  let idx = index_select(keep, 0, order)
  let kept = nms(index_select(boxes, 0, idx), top, 0.5)
  return index_select(idx, 0, kept[:min(100, kept.shape[0])])
}

let eager = env("TESSEL_DETECT_EAGER", "0") == "1"
let run = postprocess if eager else compile(postprocess)
let out = none
let t0 = now_ms()
for s in range(steps) {
  if s == 20 { t0 = now_ms() }
  out = run(boxes, scores)
  out.shape[0] + 0   # wait for the result (the tpu and vulkan run lazily)
}
let ms = (now_ms() - t0) / (steps - 20)
let compiles = 0 if eager else stats(run)["compiles"]
let compile_ms = 0.0 if eager else stats(run)["compile_ms"] / compiles   # per compile
print("eager" if eager else "tessel", "step_ms", round(ms, 4), "compiles", compiles, "compile_ms", round(compile_ms, 1), "kept", int(out.shape[0]), "first", out[:3].tolist())
