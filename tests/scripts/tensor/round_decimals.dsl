# round of a tensor with decimals, as torch.round(x, decimals = n): scaled by 10^n, rounded half
# to even and scaled back (divided by 10^-n for negative n); integer tensors need decimals = 0.
let rd = tensor([0.5, 1.5, 2.567, -1234.5])
print(round(rd, 1).tolist()[2], round(rd, -2).tolist())  # expect: 2.5999999046325684 [0.0, 0.0, 0.0, -1200.0]
print(compile(fn(v) { return round(v, 2) })(rd).tolist()[2])  # expect: 2.569999933242798
print(grad(fn(v) { return round(v * 3.0, 1).sum() })(rd).tolist())  # expect: [0.0, 0.0, 0.0, 0.0]
print(round(tensor([1, 2])).tolist(), tensor([1.4, 2.2]).round().tolist())  # expect: [1, 2] [1.0, 2.0]
print(round(tensor([15, 25]), -1))  # expect error: TypeError: round(): decimals need a float tensor, got i32
