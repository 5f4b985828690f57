# any/all/map/filter/reversed on lists, ord/chr, string methods, the math module.
print(any([false, 0, ""]), any([0, "a"]), all([1, "a"]), all([]))   # expect: false true true true
print(any(ones([2]) > 0))                                 # expect: tensor(true)
print(map(fn(x) { return x * 2 }, [1, 2]), map(str, (1, 2)))   # expect: [2, 4] ["1", "2"]
print(filter(none, [0, 1, "", "a"]), filter(fn(x) { return x > 1 }, range(4)))   # expect: [1, "a"] [2, 3]
print(reversed("abc"), reversed(range(3)), reversed({"a": 1, "b": 2}))   # expect: ["c", "b", "a"] [2, 1, 0] ["b", "a"]
print(ord("a"), ord("é"), chr(97), chr(233), ord(chr(128512)))   # expect: 97 233 a é 128512
print("  ab  ".lstrip() + "|", "|" + "  ab  ".rstrip(), "xxabxx".strip("x"))   # expect: ab  | |  ab ab
print("abcabc".find("ca"), "héllo".find("l"), "ab".find("z"), "aaaa".count("aa"))   # expect: 2 2 -1 2
print("ab".isalpha(), "a1".isalpha(), "123".isdigit(), " \t".isspace(), "".isdigit())   # expect: true false true true false
print("hello world".title(), "ab".ljust(4, "*"), "ab".rjust(4) + "|", "-42".zfill(6))   # expect: Hello World ab**   ab| -00042
print("ab" * 3, [0] * 2)                                  # expect: ababab [0, 0]
import math
print(math.sqrt(2.0), math.floor(-2.5), math.ceil(2.1), math.log(math.e))   # expect: 1.4142135623730951 -3 3 1.0
print(math.isnan(math.nan), math.isinf(-math.inf), math.isfinite(1), math.pi)   # expect: true true true 3.141592653589793
print(math.exp(0), math.sin(0), math.cos(0), math.tanh(0))   # expect: 1.0 0.0 1.0 0.0
print(sqrt(ones([1]) * 4))                                # expect: tensor([2.])
print(math.sqrt(-1))                                      # expect error: ValueError: math domain error (-1.0)
