# The dynamic-shape examples of PyTorch's docs (shared/seeds), in Tessel. Run with
#   build/repl/tessel --logs recompiles examples/dynamic_shapes.dsl
config.recompile_limit = 100

# Static shapes: every new size is a new graph.
@compile(dynamic = false)
fn f_static(x) { return x * x.shape[0] }
# Dynamic shapes: one graph serves every size.
@compile(dynamic = true)
fn f_dynamic(x) { return x * x.shape[0] }
# Automatic dynamic (the default): static first, dynamic once a size changes.
@compile
fn f_auto(x) { return x * x.shape[0] }
for n in [10, 20, 30, 40] {
  f_static(rand([n])); f_dynamic(rand([n])); f_auto(rand([n]))
}
print("graphs: static", stats(f_static)["compiles"], "dynamic", stats(f_dynamic)["compiles"],
      "automatic", stats(f_auto)["compiles"])

# Specialization: a branch on a size records a guard; three graphs for five sizes.
@compile(dynamic = true)
fn f(x) {
  if x.shape[0] == 10 { return x * 10 }
  if x.shape[0] <= 30 { return x * 200 }
  return x * x.shape[0]
}
for n in [10, 20, 30, 40, 50] { f(rand([n])) }
print("specialization graphs:", stats(f)["compiles"])
print("guards of the newest graph:", stats(f)["guards"])

# The basic example: ten sins over sizes 2..99.
fn foo(x) {
  for i in range(10) { x = sin(x) }
  return x
}
let foo_static = compile(foo, dynamic = false)
let foo_marked = compile(foo)
for i in range(2, 100) {
  foo_static(randn([i]))
  let x = randn([i])
  mark_dynamic(x, 0)
  foo_marked(x)
}
print("foo graphs: dynamic = false", stats(foo_static)["compiles"], "mark_dynamic", stats(foo_marked)["compiles"])

# Data-dependent sizes: nonzero gives an unbacked size u0 (on tpu it would print <=N).
@compile
fn positives(x) { return masked_select(x, x > 0).sum() }
print("sum of positives:", positives(tensor([1.0, -2.0, 3.0])).item())
print(explain(positives, tensor([1.0, -2.0, 3.0])))
