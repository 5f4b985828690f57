# Elementwise arithmetic, broadcasting and type promotion.
let a = tensor([[1, 2], [3, 4]])
print((a + 1).tolist(), (a * 2.0).dtype)   # expect: [[2, 3], [4, 5]] f32
print((a + tensor([10, 20])).tolist())     # expect: [[11, 22], [13, 24]]
print((a / 2).tolist())                    # expect: [[0.5, 1.0], [1.5, 2.0]]
print((a // 3).tolist(), (a % 3).tolist())  # expect: [[0, 0], [1, 1]] [[1, 2], [0, 1]]
print((-a).tolist(), (a ** 2).tolist())    # expect: [[-1, -2], [-3, -4]] [[1, 4], [9, 16]]
print((a > 2).tolist(), (a == 2).dtype)    # expect: [[false, false], [true, true]] bool
print(maximum(a, 2).tolist(), minimum(a, 2).tolist())  # expect: [[2, 2], [3, 4]] [[1, 2], [2, 2]]
print(where(a > 2, a, 0).tolist())         # expect: [[0, 0], [3, 4]]
print(clamp(a, 2, 3).tolist())             # expect: [[2, 2], [3, 3]]
print(logical_and(a > 1, a < 4).tolist())  # expect: [[false, true], [true, false]]
print(exp(tensor([0.0])).item(), sqrt(tensor([4.0])).item(), abs(tensor([-3])).item())  # expect: 1.0 2.0 3
print(relu(tensor([-1.0, 2.0])).tolist(), sigmoid(tensor([0.0])).item())  # expect: [0.0, 2.0] 0.5
print(a + tensor([1, 2, 3]))  # expect error: ShapeError: add: shapes [2, 2] and [3] are not broadcastable
