# mark_dynamic and its friends inside a compiled function are an error naming the call, as in
# PyTorch (torch._dynamo.mark_dynamic is a forbidden callable under torch.compile;
# test/dynamo/test_misc.py): a mark there would change nothing. The script can catch it.
@compile
fn f(x) {
  mark_static(x, 0)
  return x + 1
}
try {
  f(ones([3]))
} except TypeError as e {
  print(e.message)  # expect: mark_static() inside a compiled function: mark the tensor before the call (mark_static(x, 0); f(x))
}
@compile
fn g(x) {
  mark_dynamic(x, 0)  # expect error: TypeError: mark_dynamic() inside a compiled function
  return x + 1
}
g(ones([3]))
