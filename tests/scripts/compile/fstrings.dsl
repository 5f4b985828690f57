# An f-string under @compile: text needs values, so formatting a traced tensor or size is a
# graph break (the rest stays compiled), as printing one is.
@compile
fn report(x) {
  let y = x * 2
  let msg = f"sum {y.sum():.1f} of {x.shape[0]}"
  return (y, msg)
}
let (y, msg) = report(ones([3]))
print(msg)                                   # expect: sum 6.0 of 3
print(y)                                     # expect: tensor([2., 2., 2.])
print(report(ones([4]))[1])                  # expect: sum 8.0 of 4
