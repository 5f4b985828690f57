# Values and printing (language.md, "Values" and print()).
print(1, 2.5, "hi", none, true, false)   # expect: 1 2.5 hi none true false
print([1, "a", 2.0], (1,), (1, 2), {"a": 1, "b": [none]})  # expect: [1, "a", 2.0] (1,) (1, 2) {"a": 1, "b": [none]}
print(9.0, 0.1, 1e-05, 1e16, 1.5e300, -0.0)  # expect: 9.0 0.1 1e-05 1e+16 1.5e+300 -0.0
print(0x2A, 1_000, 2., .5, 1e-3)         # expect: 42 1000 2.0 0.5 0.001
print("a\tb\\n", 'single "q"')           # expect: a	b\n single "q"
print(["x\n"])                           # expect: ["x\n"]
print(type(1), type(1.5), type("s"), type([]), type(()), type({}), type(none), type(true))  # expect: int float str list tuple dict none bool
fn f() { return 1 }
print(type(f), type(print), type(range(3)))  # expect: function function range
