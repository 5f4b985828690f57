@compile
fn f(x) {
  print(x.shape)  # expect error: ValueError: print() inside a compiled function is not supported yet
  return x
}
f(ones([3]))
