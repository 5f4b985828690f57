# Seed 002 "Basic example": ten sins over sizes 2..99.
fn foo(x) {
  for i in range(10) { x = sin(x) }
  return x
}
config.recompile_limit = 100
let static_foo = compile(foo, dynamic = false)
let auto_foo = compile(foo)
let marked_foo = compile(foo)
for i in range(2, 100) {
  static_foo(randn([i]))
  auto_foo(randn([i]))
  let x = randn([i])
  mark_dynamic(x, 0)
  marked_foo(x)
}
print(stats(static_foo)["compiles"], stats(auto_foo)["compiles"], stats(marked_foo)["compiles"])  # expect: 98 2 1
let x = randn([5])
print((auto_foo(x) - foo(x)).abs().max().item() < 1e-6)  # expect: true
