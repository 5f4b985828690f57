# A jagged batch: variable-length sequences as flat values [T, D] plus lengths [B].
# Each sequence is pooled by segments (segment_reduce), the pooled row is broadcast back to its
# tokens (repeat_interleave with output_size, so the size stays T's symbol), and token counts
# come from bincount. Compiled once with dynamic sizes, the function serves batches with other
# numbers of sequences, other lengths (an empty sequence included) and other totals; its results
# and gradients equal a per-sequence loop over slices.
fn pool(values, lengths, ids) {
  let mean = segment_reduce(values, "mean", lengths = lengths, initial = 0.0)
  let peak = segment_reduce(values, "max", lengths = lengths, initial = -100.0)
  let centered = values - repeat_interleave(mean, lengths, dim = 0, output_size = values.shape[0])
  let spread = segment_reduce(centered * centered, "sum", lengths = lengths)
  let counts = bincount(ids, minlength = 6)
  return (cat([mean, peak, spread], dim = 1), counts)
}
fn loop_pool(values, lengths) {
  let rows = []
  let at = 0
  for n in lengths.tolist() {
    let seq = values[at:at + n]
    if n == 0 {
      rows.append(cat([zeros([values.shape[1]]), full([values.shape[1]], -100.0), zeros([values.shape[1]])]))
    } else {
      let m = seq.mean(dim = 0)
      rows.append(cat([m, maximum(seq.max(dim = 0)[0], full([values.shape[1]], -100.0)), ((seq - m) ** 2).sum(dim = 0)]))
    }
    at = at + n
  }
  return stack(rows)
}
let cpool = compile(pool, dynamic = true)
let closs = compile(fn (v, l, i) { return grad(fn (v) { return (pool(v, l, i)[0] ** 2).sum() })(v) }, dynamic = true)
seed(3)
let worst = 0.0
let sizes = []
for lens in [[3, 1, 4], [2, 5, 0, 1, 2], [6, 2], [1, 1, 1, 7, 3, 2]] {
  let lengths = tensor(lens)
  let t = lengths.sum().item()
  let values = randn([t, 4])
  let ids = randint(0, 5, [t])
  let (pooled, counts) = cpool(values, lengths, ids)
  worst = max(worst, abs(pooled - loop_pool(values, lengths)).max().item())
  worst = max(worst, abs(counts - bincount(ids, minlength = 6)).max().item())
  let gd = grad(fn (v) { return (loop_pool(v, lengths) ** 2).sum() })(values)
  worst = max(worst, abs(closs(values, lengths, ids) - gd).max().item())
  sizes.append(counts.shape[0])
}
print(worst < 1e-4)                                         # expect: true
print(sizes)                                                # expect: [6, 6, 6, 6]
print(stats(cpool)["compiles"], stats(closs)["compiles"])   # expect: 1 1
print(stats(cpool)["graph_breaks"])                         # expect: 0
