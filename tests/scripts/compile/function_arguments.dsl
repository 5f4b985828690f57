# A function passed to a compiled function is guarded by its code and what it captures, not by
# object identity (PyTorch guards a closure argument by its code object and cell contents:
# test/dynamo/test_recompiles.py, test_misc.py's nested-function tests). A closure made
# afresh for each call does not recompile, and an int it captures becomes dynamic once it
# changes, like any other int argument.
@compile
fn apply(f, x) { return f(x) }
fn scale(k) { return fn (x) { return x * k } }

for k in [2, 3, 4, 5, 6] { apply(scale(k), ones([2])) }
print(apply(scale(7), ones([2])))                  # expect: tensor([7., 7.])
print(stats(apply)["compiles"])                    # expect: 2
print(stats(apply)["reasons"])                     # expect: ["f.k: expected 2, got 3"]

# A lambda written in a loop is a new object each time, but the same code: one entry.
let before = stats(apply)["compiles"]
for i in range(5) { apply(fn (x) { return x + i }, ones([2])) }
print(stats(apply)["compiles"] - before)           # expect: 2

# Another function is other code: a new entry, with a reason naming it.
fn leaky(x, slope = 0.1) { return maximum(x, x * slope) }
print(apply(leaky, tensor([-1.0, 2.0])))           # expect: tensor([-0.1000,  2.0000])
print(stats(apply)["reasons"][-1])                 # expect: f: expected the function <lambda> (the same code as when compiled), got <fn leaky>
apply(leaky, tensor([-1.0, 2.0]))
print(stats(apply)["cache_hits"] > 0)              # expect: true

# Captured tensors are inputs too: a new tensor of the same shape does not recompile.
fn shift(b) { return fn (x) { return x + b } }
@compile
fn run(f, x) { return f(x) }
run(shift(ones([2])), ones([2]))
print(run(shift(tensor([5.0, 6.0])), ones([2])))  # expect: tensor([6., 7.])
print(stats(run)["compiles"])                      # expect: 1
