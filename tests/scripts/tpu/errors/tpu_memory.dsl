# config.tpu_memory_bytes is the device memory (backends.md, "tpu"): a program whose arena and
# outputs need more fails at compile time with a DeviceError naming the bytes. (The session goes
# on afterwards, as the REPL shows; a script stops at its first error.)
let x = ones([48, 40]).to("tpu")
print((x.T @ x).sum().item())  # expect: 76800.0
config.tpu_memory_bytes = 4096
let y = x @ x.T
print(y.sum().item())  # expect error: DeviceError: tpu: program
