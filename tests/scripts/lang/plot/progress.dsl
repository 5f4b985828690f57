# progress() yields the items of what it wraps, in order, one at a time (the bar it draws on
# stderr is checked in tests/interp/plot_test.cpp).
let seen = []
for x in progress([3, 1, 2], desc = "items") { seen.append(x) }
print(seen)  # expect: [3, 1, 2]
let p = progress(range(4), total = 10)
print(type(p), p)  # expect: progress <progress 0/10>
let total = 0
for i in p {
  total += i
  p.set_postfix(loss = 0.5 / (i + 1), step = i)
}
print(total, p)  # expect: 6 <progress 4/10>
# A second loop starts again; break leaves the loop at the item it was on.
for i in p { if i == 2 { break } }
print(p)  # expect: <progress 2/10>
print([x * 2 for x in progress((1, 2))], list(progress("ab")), sorted(progress({"b": 1, "a": 2})))
# expect: [2, 4] ["a", "b"] ["a", "b"]
# A return from inside the loop.
fn first_big(xs) { for x in progress(xs) { if x > 1 { return x } } return none }
print(first_big([0, 5, 7]))  # expect: 5
print(dir(p))  # expect: ["set_postfix"]
print(p.set_postfix({"acc": 0.9}))  # expect: none
try { p.set_postfix(1) } except TypeError as e { print(e.message) }
# expect: set_postfix() takes keywords (set_postfix(loss = l)) or one dict
try { p.reset() } except TypeError as e { print(e.message) }
# expect: 'progress' has no attribute 'reset'
try { progress([1], total = -1) } except ValueError as e { print(e.message) }
# expect: progress(): total must not be negative, not -1
# A progress bar in a cycle (the list it iterates holds it) is found by the cycle collector.
fn make_cycle() {
  let l = [1]
  let bar = progress(l)
  l.append(bar)
  for x in bar { }
}
make_cycle()
print(gc())  # expect: 2
progress(5)   # expect error: TypeError: progress(): iterable must be something a for loop can iterate, not int
