# .npy: one tensor, f32, i32 and bool as they are, shapes from 0-d to 3-d, views saved as
# their elements.
let dir = args[0]
let x = tensor([[1.5, -2.0, 3.25], [4.0, 5.0, 6.0]])
save(dir + "/x.npy", x)
let y = load(dir + "/x.npy")
print(y.tolist())  # expect: [[1.5, -2.0, 3.25], [4.0, 5.0, 6.0]]
print(y.dtype, y.shape)  # expect: f32 shape([2, 3])
save(dir + "/i.npy", tensor([7, -8, 2147483647]))
let i = load(dir + "/i.npy")
print(i.dtype, i.tolist())  # expect: i32 [7, -8, 2147483647]
save(dir + "/b.npy", tensor([true, false, true]))
let b = load(dir + "/b.npy")
print(b.dtype, b.tolist())  # expect: bool [true, false, true]
save(dir + "/s.npy", 2.5)
let s = load(dir + "/s.npy")
print(s.shape, s.item())  # expect: shape([]) 2.5
save(dir + "/t.npy", x.T)
print(load(dir + "/t.npy").tolist())  # expect: [[1.5, 4.0], [-2.0, 5.0], [3.25, 6.0]]
save(dir + "/e.npy", zeros([0, 4]))
print(load(dir + "/e.npy").shape)  # expect: shape([0, 4])
let big = arange(24).reshape([2, 3, 4])
save(dir + "/big.npy", big)
print(load(dir + "/big.npy")[1, 2].tolist())  # expect: [20, 21, 22, 23]
# Saving again replaces the file.
save(dir + "/x.npy", tensor([1.0]))
print(load(dir + "/x.npy").tolist())  # expect: [1.0]
