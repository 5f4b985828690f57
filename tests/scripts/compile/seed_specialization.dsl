# Seed 002 "What is a specialization?": three graphs for sizes 10, 20, 30, 40, 50.
@compile(dynamic = true)
fn f(x) {
  if x.shape[0] == 10 { return x * 10 }
  if x.shape[0] <= 30 { return x * 200 }
  return x * x.shape[0]
}
for n in [10, 20, 30, 40, 50] { f(ones([n])) }
print(stats(f)["compiles"])                          # expect: 3
print(stats(f)["reasons"])                           # expect: ["s0 == 10 failed (s0 = 20 from x.shape[0])", "s0 <= 30 failed (s0 = 40 from x.shape[0])"]
print(stats(f)["guards"])                            # expect: ["x.shape[0] >= 31"]
print(f(ones([10]))[0].item(), f(ones([25]))[0].item(), f(ones([45]))[0].item())  # expect: 10.0 200.0 45.0
print(stats(f)["compiles"])                          # expect: 3
