# mark_dynamic on a dimension that an existing entry compiled as static makes that entry miss,
# as PyTorch's _dynamo_dynamic_indices guard does (pytorch/pytorch test/dynamo/
# test_recompiles.py, test_misc.py's mark_dynamic tests): the new entry has the dimension
# dynamic, and later sizes reuse it.
@compile
fn f(x) { return x * 2 }
f(ones([3, 2]))
f(ones([3, 2]))
print(stats(f)["compiles"], stats(f)["guards"])  # expect: 1 ["x.shape[0] == 3", "x.shape[1] == 2"]
let y = ones([3, 2])
mark_dynamic(y, 0)
f(y)
print(stats(f)["compiles"])                       # expect: 2
print(stats(f)["reasons"])                        # expect: ["x.shape[0] is marked dynamic now, and this entry compiled it static"]
let z = ones([7, 2])
mark_dynamic(z, 0)
f(z)
print(stats(f)["compiles"])                       # expect: 2
print(stats(f)["guards"])                         # expect: ["x.shape[1] == 2"]
