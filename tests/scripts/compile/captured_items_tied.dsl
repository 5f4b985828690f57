# A captured .item() tied to input sizes by check() (Note [Captured items] in
# backends/graph/executor_base.h): the check holds on one call and fails on the next.
config.capture_scalar_outputs = true

# test_misc.py, test_sym_constrain_range_on_replaced_unbacked_symbol: a check tying the number
# to input sizes holds on one call and fails on the next.
@compile(fullgraph = true)
fn tied(x, y, z) {
  let u0 = (z + 7).item()
  check(u0 == x.shape[0] + y.shape[0])
  return x.shape[0] + u0
}
print(tied(zeros([16, 10]), zeros([16, 10]), tensor(25)))  # expect: 48
tied(zeros([16, 10]), zeros([16, 10]), tensor(32))  # expect error: AssertionError: runtime assert failed: u0 == 32 (u0 = 39)
