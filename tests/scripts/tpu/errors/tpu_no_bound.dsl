# A size with no upper bound cannot be planned in static memory: mark_unbacked gives a size
# with no hint and no max, so compiling for the tpu is a DeviceError asking for a bound, and
# the same function on the cpu runs.
@compile(backend = "tpu")
fn f(x) { return (x * 2).sum() }
let a = ones([6])
mark_unbacked(a, 0)
@compile
fn g(x) { return (x * 2).sum() }
print(g(a).item())  # expect: 12.0
print(f(a).item())  # expect error: DeviceError: tpu: program 'f[0/0]': the size u0 of
