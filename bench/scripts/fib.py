# Recursive calls: fib(27). Prints the result and the time in ms (CPython baseline).
import time

def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

t = time.perf_counter()
r = fib(27)
print(r, (time.perf_counter() - t) * 1000)
