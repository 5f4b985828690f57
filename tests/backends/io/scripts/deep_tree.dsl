# Trees nest as deep as save allows (200 levels) and come back whole; deeper is a ValueError.
let dir = args[0]
let t = tensor([1.0])
for i in range(199) { t = {"k": t} if i % 2 == 0 else [t] }
save(dir + "/deep.safetensors", t)
let back = load(dir + "/deep.safetensors")
let depth = 0
while type(back) != "tensor" {
  back = back["k"] if type(back) == "dict" else back[0]
  depth += 1
}
print(depth, back.tolist())  # expect: 199 [1.0]
let loop = []
loop.append(loop)
save(dir + "/loop.safetensors", loop)  # expect error: ValueError: save(): the value nests deeper than 200 levels (does a list contain itself?)
