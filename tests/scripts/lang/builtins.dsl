# The prelude, one built-in at a time.
print()                                       # expect: 
print("a", 1, none, sep = "-")                # expect: a-1-none
print("no newline", end = "")
print(" then newline")                        # expect: no newline then newline
print(len("abc"), len([1]), len((1, 2)), len({"a": 1}), len(range(10)))   # expect: 3 1 2 1 10
print(range(3), range(1, 5), range(0, 10, 2), list(range(10, 0, -3)))   # expect: range(0, 3) range(1, 5) range(0, 10, 2) [10, 7, 4, 1]
print(str(1), str(2.0), str("s"), str(), str((1,)))   # expect: 1 2.0 s  (1,)
print(int(7), int(7.9), int(-7.9), int(true), int(" 12 "), int("-3"), int())   # expect: 7 7 -7 1 12 -3 0
print(float(1), float("2.5"), float(" -1e2 "), float(false), float("inf"), float())   # expect: 1.0 2.5 -100.0 0.0 inf 0.0
print(bool(1), bool(0), bool(""), bool("x"), bool(none), bool([0]), bool())   # expect: true false false true false true false
print(min(4, 2, 8), min([5, 3]), min("b", "a"), min([], default = 0), min([1, -5], key = abs))   # expect: 2 3 a 0 1
print(max(4, 2, 8), max((1.5, 2)), max(["x", "yy"], key = len))   # expect: 8 2 yy
print(abs(-3), abs(2.5), abs(-0.0), abs(true))   # expect: 3 2.5 0.0 1
print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(7), round(1.5e10), round(1234.5, -2))   # expect: 2 4 -2 2.67 7 15000000000 1200.0
print(sum([1, 2, 3]), sum([]), sum([0.1, 0.2]), sum([1, 2], 10), sum(range(101)))   # expect: 6 0 0.30000000000000004 13 5050
print(type(1), type(none), type(print), type(len), type(range(1)), type((1,)))   # expect: int none function function range tuple
print(isinstance(1, int), isinstance(1, float), isinstance(1.0, "float"), isinstance("s", (int, str)), isinstance([], list))   # expect: true false true true true
print(list(), list((1, 2)), list({"a": 1}), tuple(), tuple(range(2)), dict())   # expect: [] [1, 2] ["a"] () (0, 1) {}
print(sorted([3, 1, 2]), sorted("cab"), sorted([3, 1], reverse = true), sorted([(2, "b"), (1, "z"), (2, "a")]))   # expect: [1, 2, 3] ["a", "b", "c"] [3, 1] [(1, "z"), (2, "a"), (2, "b")]
print(sorted([-3, 1, 2], key = fn (x) { return x * x }))   # expect: [1, 2, -3]
print(enumerate("ab"), enumerate([], start = 5))   # expect: [(0, "a"), (1, "b")] []
print(zip([1, 2], (3, 4), "ab"), zip(), zip([1], []))   # expect: [(1, 3, "a"), (2, 4, "b")] [] []
let t0 = now_ms()
let t1 = now_ms()
print(type(t0), t1 >= t0)                     # expect: float true
print("before exit")                          # expect: before exit
exit(0)
print("never printed")
