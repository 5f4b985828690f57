# Globals read by the traced body are guarded like arguments.
let scale = 2
@compile
fn f(x) { return x * scale }
print(f(ones([2])).tolist())   # expect: [2.0, 2.0]
scale = 3
print(f(ones([2])).tolist())   # expect: [3.0, 3.0]
print(stats(f)["compiles"], stats(f)["reasons"])  # expect: 2 ["global 'scale': expected 2, got 3"]
