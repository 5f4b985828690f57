# Bounded sizes on the tpu, after pytorch/xla test/ds/test_dynamic_shapes.py (run there with
# XLA_EXPERIMENTAL="nonzero:masked_select"): a size made by nonzero/masked_select prints as its
# bound, keeps a bound through size arithmetic, and gives its real value to int(), comparisons
# and expand. Expected values are PyTorch's (the real sizes); bounds are the tight maxima.

# test_simple_expand: t2 = nonzero of a [5, 2] input with two nonzeros is [<=10, 2], real [2, 2].
let t1 = tensor([[0, 0], [0, 0], [0, 0], [1, 1], [0, 0]]).to("tpu")
let t2 = nonzero(t1)
print(t2.shape)                                  # expect: shape([<=10, 2])
let t6 = ones([1]).to("tpu").expand([t2.shape[0]])
print(t6.shape)                                  # expect: shape([<=10])
print(t6.to("cpu").shape, t6.to("cpu").shape[0])  # expect: shape([2]) 2

# test_simple_expand_on_2d_tensor: sizes as a list, as varargs, as a tuple, mixed with ints.
let t3 = ones([1, 2]).to("tpu")
let e1 = t3.expand([t2.shape[0], t2.shape[1]])
print(e1.shape, int(e1.shape[0]), e1.shape[1])   # expect: shape([<=10, 2]) 2 2
let e2 = t3.expand(t2.shape[0], t2.shape[1])
print(e2.shape, e2.shape[0] == 2, e2.shape[1] == 2)  # expect: shape([<=10, 2]) true true
let e3 = t3.expand((t2.shape[0], 2))
print(e3.shape, e3.tolist())                     # expect: shape([<=10, 2]) [[1.0, 1.0], [1.0, 1.0]]
let e4 = expand(t3, [t2.shape[0], 2])
print(e4.to("cpu").shape)                        # expect: shape([2, 2])

# test_simple_expand_add_dimension: both new dims are the same bounded size.
let t4 = ones([1]).to("tpu").expand([t2.shape[0], t2.shape[0]])
print(t4.shape, str(t4.shape[0]), str(t4.shape[1]))  # expect: shape([<=10, <=10]) <=10 <=10
print(t4.shape[0] == 2, t4.shape[1] == 2)        # expect: true true

# test_wrap: a bounded size plus an int is a bounded size (<=6 + 3), real value 3 + 3.
let a2 = nonzero(tensor([[1, 0, 0, 5, 0, 6]]).to("tpu"))
print(a2.shape[0] == 3)                          # expect: true
let a3 = a2.shape[0] + 3
print(a3, int(a3))                               # expect: <=9 6

# test_sizeAdd: one nonzero in [5, 2]: n = 1 (<=10) plus the static 2.
let s1 = nonzero(tensor([[0, 0], [0, 0], [0, 0], [1, 0], [0, 0]]).to("tpu"))
let dyn_add = s1.shape[0] + s1.shape[1]
print(int(dyn_add), str(dyn_add))                # expect: 3 <=12
let x_add = ones([1]).to("tpu").expand([dyn_add])
print(x_add.shape, x_add.shape[0] == 3)          # expect: shape([<=12]) true

# test_sizeSub: three nonzeros: 3 - 2 = 1, bound 10 - 2 = 8.
let s2 = nonzero(tensor([[1, 0], [1, 0], [1, 0], [0, 0], [0, 0]]).to("tpu"))
let dyn_sub = s2.shape[0] - s2.shape[1]
print(int(dyn_sub), str(dyn_sub))                # expect: 1 <=8
let x_sub = ones([1]).to("tpu").expand([dyn_sub])
print(x_sub.shape, x_sub.to("cpu").shape)        # expect: shape([<=8]) shape([1])

# test_sizeMod: 1 % 2 = 1. XLA prints '<=0' there (10 % 2, the bound taken modulo); the true
# maximum of n % 2 for n in [0, 10] is 1.
let dyn_mod = s1.shape[0] % s1.shape[1]
print(int(dyn_mod), dyn_mod)                     # expect: 1 <=1
let s1b = nonzero(tensor([[0, 0], [0, 0], [0, 0], [1, 0], [0, 0]]).to("tpu"))
print(int(s1.shape[0] % s1b.shape[0]))           # expect: 0

# test_sizeGe / test_sizeLt / test_sizeGt / test_sizeNe: n = 1 against the static 2.
print(s1.shape[0] >= s1.shape[1], int(s1.shape[0] >= s1.shape[1]))  # expect: false 0
print(s1.shape[0] < s1.shape[1], int(s1.shape[0] < s1.shape[1]))    # expect: true 1
print(s1.shape[0] > s1.shape[1], s1.shape[0] != s1.shape[1])        # expect: false true

# test_sizeMinMax: sym_max(n, 2) = 2, sym_min(n, 2) = 1.
print(int(max(s1.shape[0], s1.shape[1])), int(min(s1.shape[0], s1.shape[1])))  # expect: 2 1

# test_xlatensor_memoize_symsizes: reading a bounded size twice runs nothing.
let c0 = stats()["tpu"]["compilations"]
let e0 = stats()["tpu"]["executions"]
let m2 = nonzero(tensor([1, 0, 3, 5, 0, 6]).to("tpu"))
let size_a = m2.shape[0]
let size_b = m2.shape[0]
print(size_a, size_b)                            # expect: <=6 <=6
print(stats()["tpu"]["compilations"] - c0, stats()["tpu"]["executions"] - e0)  # expect: 0 0
# test_SizeEq_should_not_compile_for_identical_symints (the value only).
print(size_a == size_b, size_a == 4)             # expect: true true

# test_nonzero_shape / test_masked_select_shape: the real size of dim 0.
let x = tensor([0, 1, 2, 0, 3, 4]).to("tpu")
let nz = nonzero(x)
print(nz.shape, int(nz.shape[0]))                # expect: shape([<=6, 1]) 4
let ms = masked_select(x, x >= 2)
print(ms.shape, int(ms.shape[0]), ms.tolist())   # expect: shape([<=6]) 3 [2, 3, 4]
let mi = x[x >= 2]
print(mi.shape, mi.tolist())                     # expect: shape([<=6]) [2, 3, 4]

# test_empty_symint: a creation op given a bounded shape. On the tpu (TESSEL_DEVICE=tpu) it is
# [<=6, 2] as in XLA; on the cpu it takes the real sizes (docs/tpu.md). Real size 3 either way.
let em = zeros(a2.shape, dtype = i32)
print(int(em.shape[0]), em.shape[1], em.dtype, em.device == device())  # expect: 3 2 i32 true

# Sizes in branches and loops take the real value.
let n = nz.shape[0]
if n > 3 { print("more than 3") } else { print("at most 3") }  # expect: more than 3
let total = 0
for i in range(n) { total += i }
print(total, len(range(n)))                      # expect: 6 4

# Without XLA_EXPERIMENTAL (config.tpu_bounded_dynamic = false) a data-dependent op syncs and
# gives the static size its data has, so each new size is a new program; with bounds, the
# program of the first iteration serves them all (test_forward_pass_dynamic_input_compile_once).
# Programs are cached process-wide, so the counts are taken after the first iteration.
fn run_sizes(ks) {
  sync()
  let after_first = 0
  for k in ks {
    let v = nonzero((arange(6) < k).to(i32).to("tpu"))
    print(v.shape, (v * 2).sum().item())
    if after_first == 0 { after_first = stats()["tpu"]["compilations"] }
  }
  return stats()["tpu"]["compilations"] - after_first
}
config.tpu_bounded_dynamic = false
let static_new = run_sizes([1, 2, 3, 2])
# expect: shape([1, 1]) 0
# expect: shape([2, 1]) 2
# expect: shape([3, 1]) 6
# expect: shape([2, 1]) 2
print(static_new)                                # expect: 2
config.tpu_bounded_dynamic = true
let bounded_new = run_sizes([1, 2, 3, 2])
# expect: shape([<=6, 1]) 0
# expect: shape([<=6, 1]) 2
# expect: shape([<=6, 1]) 6
# expect: shape([<=6, 1]) 2
print(bounded_new)                               # expect: 0
