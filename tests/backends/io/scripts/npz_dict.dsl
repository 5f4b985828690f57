# .npz: a dict of tensors, stored or deflated.
let dir = args[0]
let d = {"a": tensor([1.0, 2.0]), "b": arange(6).reshape([2, 3]), "c": tensor([true])}
save(dir + "/d.npz", d)
let back = load(dir + "/d.npz")
print(list(back.keys()))  # expect: ["a", "b", "c"]
print(back["a"].tolist(), back["b"].tolist(), back["c"].tolist())  # expect: [1.0, 2.0] [[0, 1, 2], [3, 4, 5]] [true]
print(back["a"].dtype, back["b"].dtype, back["c"].dtype)  # expect: f32 i32 bool
save(dir + "/z.npz", {"zeros": zeros([100, 100])}, compress = true)
print(load(dir + "/z.npz")["zeros"].sum().item())  # expect: 0.0
save(dir + "/bad.npz", [tensor([1.0])])  # expect error: TypeError: save(): a value saved to .npz must be a dict of tensors, not list
