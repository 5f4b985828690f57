# Assigning a global inside a compiled function is a graph break: the assignment runs eagerly
# at every call (it once crashed the process: the trace changed the global its own guard read).
let calls = 0
@compile
fn count(x) {
  calls = calls + 1
  return x * calls
}
print(count(ones([2])).tolist())  # expect: [1.0, 1.0]
print(count(ones([2])).tolist())  # expect: [2.0, 2.0]
print(calls)                      # expect: 2
@compile(fullgraph = true)
fn strict(x) {
  calls = calls + 1  # expect error: ValueError: changing a global variable made outside the traced code
  return x
}
strict(ones([2]))
