# mark_dynamic: a size that tracing specializes is a ConstraintViolation naming the line.
@compile
fn h(x) {
  if x.shape[0] == 3 { return x + 1 }
  return x - 1
}
let a = ones([3])
mark_dynamic(a, 0)
h(a)  # expect error: ConstraintViolation: Constraints violated (x.shape[0])! x.shape[0] was marked dynamic but tracing specialized it to 3 by x.shape[0] == 3 at
