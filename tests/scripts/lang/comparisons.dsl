# ==, !=, <, <=, >, >= with Python semantics; comparisons chain.
print(1 == 1.0, 1 != 2, "a" == "a", none == none, none == false)   # expect: true true true true false
print([1, 2] == [1, 2], (1, [2]) == (1, [2]), {"a": 1} == {"a": 1}, [1] == (1,))   # expect: true true true false
print(1 < 2, 2 <= 2, 3 > 4, 4 >= 4.5)       # expect: true true false false
print("apple" < "banana", "Z" < "a", [1, 2] < [1, 2, 0], (2,) > (1, 9))   # expect: true true true true
print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 > 1 >= 1, 1 == 1 == 1.0)   # expect: true false true true
print(true == 1, false < true, 0.1 + 0.2 == 0.3)   # expect: true true false
print(1 == "1", [] == {}, print == print)     # expect: false false true
fn side(x) { print("eval", x); return x }
print(side(1) < side(0) < side(5))             # chains stop at the first false operand
# expect: eval 1
# expect: eval 0
# expect: false
