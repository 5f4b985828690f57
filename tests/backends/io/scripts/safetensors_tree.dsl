# .safetensors: a tree of tensors comes back as it was saved (Note [Trees in safetensors]).
let dir = args[0]
let params = {
  "enc": {"w": tensor([[1.0, 2.0], [3.0, 4.0]]), "b": tensor([0.5, -0.5])},
  "head": [tensor([1, 2, 3]), (tensor([true, false]), 3)],
  "step": 10, "lr": 0.001, "name": "adam", "done": false, "extra": none,
}
save(dir + "/ckpt.safetensors", params)
let back = load(dir + "/ckpt.safetensors")
print(back["enc"]["w"].tolist())  # expect: [[1.0, 2.0], [3.0, 4.0]]
print(back["enc"]["b"].tolist())  # expect: [0.5, -0.5]
print(back["head"][0].dtype, back["head"][0].tolist())  # expect: i32 [1, 2, 3]
print(back["head"][1][0].dtype, back["head"][1][0].tolist(), back["head"][1][1])  # expect: bool [true, false] 3
print(back["step"], back["lr"], back["name"], back["done"], back["extra"])  # expect: 10 0.001 adam false none
print(list(back.keys()))  # expect: ["enc", "head", "step", "lr", "name", "done", "extra"]
print(type(back["head"]), type(back["head"][1]))  # expect: list tuple
# A bare tensor.
save(dir + "/one.safetensors", arange(4))
print(load(dir + "/one.safetensors").tolist())  # expect: [0, 1, 2, 3]
# Computing with loaded (memory-mapped) tensors.
print((back["enc"]["w"] @ back["enc"]["b"]).tolist())  # expect: [-0.5, -0.5]
