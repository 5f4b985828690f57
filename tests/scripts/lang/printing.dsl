# print() writes values as language.md says.
print(1, -2, 2.5, "s", none, true, false)    # expect: 1 -2 2.5 s none true false
print(9.0, 0.1, 1e-05, 0.0001, 1e16, 1e15, 123456789012345678.0, 1.5e-10)   # expect: 9.0 0.1 1e-05 0.0001 1e+16 1000000000000000.0 1.2345678901234568e+17 1.5e-10
print(1.0 / 3, 2.0 / 3, 100.0, -0.0, 1e300 * 1e10, -1e300 * 1e10)   # expect: 0.3333333333333333 0.6666666666666666 100.0 -0.0 inf -inf
print([1, 2.5, "s", none, true], ["a"], [])   # expect: [1, 2.5, "s", none, true] ["a"] []
print((1,), (1, 2), ())                        # expect: (1,) (1, 2) ()
print({"a": 1, "b": "x"}, {"q\"": [1.0]})       # expect: {"a": 1, "b": "x"} {"q\"": [1.0]}
print("top-level strings print bare", ["nested strings are quoted"])   # expect: top-level strings print bare ["nested strings are quoted"]
print(range(2), len, fn (x) { return x })      # expect: range(0, 2) <built-in fn len> <fn <lambda>>
import "modules/helper.dsl" as h
print(h)                                       # expect: <module helper>
print(str(0.1 + 0.2), 1e22, 1e-7, 12345.678)   # expect: 0.30000000000000004 1e+22 1e-07 12345.678
print(2 ** 62, -9223372036854775807 - 1)               # expect: 4611686018427387904 -9223372036854775808
