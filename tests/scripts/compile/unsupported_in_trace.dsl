# What a compiled function cannot do yet (graph breaks come later) is a clear error.
@compile
fn f(x) {
  let total = x.sum().item()  # expect error: DataDependentError: x.item() inside a compiled function needs the tensor's data
  return total
}
f(ones([3]))
