# Assigning a global inside a compiled function is refused the same way (it once crashed the
# process: the trace changed the global its own guard had read).
let calls = 0
@compile
fn count(x) {
  calls = calls + 1  # expect error: ValueError: changing a global variable made outside a compiled function is not supported yet
  return x
}
count(ones([2]))
