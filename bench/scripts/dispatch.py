# NumPy's per-call overhead for the same op as dispatch.dsl.
import time
import numpy as np
n = 200000
x = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
y = np.array([4.0, 3.0, 2.0, 1.0], dtype=np.float32)
t = time.perf_counter()
for i in range(n):
    z = x + y
elapsed = time.perf_counter() - t
print("numpy x + y (4 elems):", round(elapsed * 1e9 / n, 1), "ns/op")
