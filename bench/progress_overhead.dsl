# What progress() costs a training loop (the goal: under 1% of a 200-step loop): 200 SGD steps of
# a small linear model (grad of an MSE loss, 64x32 @ 32x10) with and without progress() and a
# set_postfix(loss = ...) per step, alternated over 40 rounds; the fastest of each in ms (the
# minimum: other work on the machine only ever adds time). Then the cost per item alone: an
# empty loop of 200000 items bare, in progress(), and with set_postfix. Run:
#   TESSEL_PROGRESS=tty build/repl/tessel bench/progress_overhead.dsl 2>/dev/null
# (tty: the redrawn bar, as on a terminal; plain: a line each tenth).
seed(0)
let x = randn([64, 32])
let y = randn([64, 10])
fn loss_of(w) { return mse_loss(x @ w, y) }
let step = grad(loss_of)

fn plain_loop() {
  let w = zeros([32, 10])
  for i in range(200) {
    let l = loss_of(w).item()
    w = w - 0.05 * step(w)
  }
  return w
}

fn progress_loop() {
  let w = zeros([32, 10])
  let bar = progress(range(200), desc = "train")
  for i in bar {
    let l = loss_of(w).item()
    w = w - 0.05 * step(w)
    bar.set_postfix(loss = l)
  }
  return w
}


# TESSEL_BENCH_LOOP=plain or =progress runs only that loop, TESSEL_BENCH_ROUNDS times (20), for
# an instruction count that load on the machine cannot move (docs/perf.md):
#   TESSEL_BENCH_LOOP=plain valgrind --tool=callgrind build/repl/tessel bench/progress_overhead.dsl
let only = env("TESSEL_BENCH_LOOP")
if only != none {
  for r in range(int(env("TESSEL_BENCH_ROUNDS", "20"))) {
    if only == "plain" { plain_loop() } else { progress_loop() }
  }
  exit(0)
}
plain_loop()
progress_loop()
let plain = []
let with_bar = []
for r in range(40) {
  let t0 = now_ms()
  plain_loop()
  plain.append(now_ms() - t0)
  let t1 = now_ms()
  progress_loop()
  with_bar.append(now_ms() - t1)
}
let a = min(plain)
let b = min(with_bar)
print("200 steps without progress (ms):", round(a, 3))
print("200 steps with progress (ms):", round(b, 3))
print("overhead (%):", round((b - a) / a * 100, 2))

let n = 200000
let t0 = now_ms()
for i in range(n) { }
let bare = now_ms() - t0
t0 = now_ms()
let p = progress(range(n))
for i in p { p.set_postfix(loss = 0.5) }
let wrapped = now_ms() - t0
print("ns per item: bare loop", round(bare / n * 1e6, 1), "with progress and set_postfix",
      round(wrapped / n * 1e6, 1))
