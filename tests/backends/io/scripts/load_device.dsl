# load(..., device = ...) puts the tensors straight on that device (vulkan: ApiFiles test).
let dir = args[0]
save(dir + "/t.safetensors", {"a": tensor([1.0, 2.0]), "b": [arange(3)]})
let d = load(dir + "/t.safetensors", device = "tpu")
print(d["a"].device, d["b"][0].device)  # expect: tpu tpu
print((d["a"] * 2).tolist(), d["b"][0].tolist())  # expect: [2.0, 4.0] [0, 1, 2]
save(dir + "/t.npy", tensor([[1, 2], [3, 4]]))
print(load(dir + "/t.npy", device = "tpu").sum().item())  # expect: 10
print(load(dir + "/t.npy", device = "cpu").device)  # expect: cpu
load(dir + "/t.npy", device = "abacus")  # expect error: ValueError: load(): device names no device: 'abacus' (cpu, vulkan, tpu)
