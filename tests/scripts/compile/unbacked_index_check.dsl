# Found by tests/fuzz/fuzz_compile_diff: shape rules decided their checks size-obliviously, as
# if a data-dependent size were at least 2, so x[-1] of an empty nonzero() result reached the
# kernel when compiled and aborted the process (an internal error), where eager code raises an
# IndexError. The check is a runtime assert now.
@compile
fn last(y) { return nonzero(y > 0)[-1] }
print(last(tensor([1, -2, 3])).tolist())  # expect: [2]
print(last(tensor([-1, -2, 0])))  # expect error: IndexError
