# Creation functions and dtype inference (language.md, "Tensors").
let a = tensor([[1, 2], [3, 4]])
print(a.shape, a.dtype, a.ndim, a.numel(), a.device == device())  # expect: shape([2, 2]) i32 2 4 true
print(tensor([1.5, 2]).dtype, tensor([true, false]).dtype, tensor([]).dtype)  # expect: f32 bool f32
print(tensor([1, 2], dtype = f32))      # expect: tensor([1., 2.])
print(tensor(3.5), tensor(7).item())    # expect: tensor(3.5000) 7
print(zeros([2, 3]).shape, ones(4).tolist())  # expect: shape([2, 3]) [1.0, 1.0, 1.0, 1.0]
print(full([2], 7), full([2], 0.5))     # expect: tensor([7, 7]) tensor([0.5000, 0.5000])
print(arange(4), arange(2, 8, 3), arange(0, 1, 0.5))  # expect: tensor([0, 1, 2, 3]) tensor([2, 5]) tensor([0.0000, 0.5000])
print(eye(2).tolist(), eye(2, 3).shape)  # expect: [[1.0, 0.0], [0.0, 1.0]] shape([2, 3])
seed(7)
let r1 = rand([3]).tolist()
seed(7)
print(r1 == rand([3]).tolist())          # expect: true
let r = randint(0, 5, [100])
print(r.dtype, (r >= 0).all().item(), (r < 5).all().item())  # expect: i32 true true
