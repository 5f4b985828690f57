# .npz: a dict of tensors, stored or deflated.
let dir = args[0]
let d = {"a": tensor([1.0, 2.0]), "b": arange(6).reshape([2, 3]), "c": tensor([true])}
save(dir + "/d.npz", d)
let back = load(dir + "/d.npz")
print(list(back.keys()))  # expect: ["a", "b", "c"]
print(back["a"], back["b"], back["c"])  # expect: tensor([1.0, 2.0]) tensor([[0, 1, 2], [3, 4, 5]], dtype=i32) tensor([true], dtype=bool)
save(dir + "/z.npz", {"zeros": zeros([100, 100])}, compress = true)
print(load(dir + "/z.npz")["zeros"].sum())  # expect: tensor(0.0)
save(dir + "/bad.npz", [tensor([1.0])])  # expect error: TypeError: save(): a value saved to .npz must be a dict of tensors, not list
