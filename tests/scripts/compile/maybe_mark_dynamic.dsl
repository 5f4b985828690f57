# maybe_mark_dynamic: dynamic from the first compile, no error when specialized.
@compile
fn f(x) { return x * 2 }
let a = ones([3])
maybe_mark_dynamic(a, 0)
f(a)
f(ones([5])); f(ones([8]))
print(stats(f)["compiles"])  # expect: 1
@compile
fn h(x) {
  if x.shape[0] == 3 { return x + 1 }
  return x - 1
}
let b = ones([3])
maybe_mark_dynamic(b, 0)
print(h(b).tolist())         # expect: [2.0, 2.0, 2.0]
