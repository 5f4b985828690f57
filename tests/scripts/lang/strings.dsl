# String literals, escapes, indexing by code point, slicing and methods.
print("tab\tnew\\n quote\" apos\' hex\x41 uni\u00e9 nul-free")   # expect: tab	new\n quote" apos' hexA unié nul-free
print('single', "dou'ble", 'sin"gle')      # expect: single dou'ble sin"gle
let s = "héllo wörld"
print(len(s), s[1], s[-1], s[0:5], s[6:], s[::2])   # expect: 11 é d héllo wörld hlowrd
print("a" + "b" * 3, 2 * "xy", "" * 5 == "")   # expect: abbb xyxy true
print("a,b,,c".split(","), "  a  b ".split(), "abc".split("b"))   # expect: ["a", "b", "", "c"] ["a", "b"] ["a", "c"]
print(", ".join(["x", "y", "z"]), "".join([]), "-".join("abc"))   # expect: x, y, z  a-b-c
print("MiXeD".upper(), "MiXeD".lower())     # expect: MIXED mixed
print("prefix".startswith("pre"), "prefix".startswith("fix"), "suffix".endswith("fix"), "x".endswith(""))   # expect: true false true true
print(" pad ".strip() + "|", "a-b-a".replace("a", "c"))   # expect: pad| c-b-c
print(str(12) + str(1.5) + str(true) + str(none) + str([1, "a"]))   # expect: 121.5truenone[1, "a"]
print("abc" < "abd", "abc" == "ab" + "c", "b" in "abc")   # expect: true true true
print(["quote\"", 'it\'s', "back\\slash", "tab\t"])   # expect: ["quote\"", "it's", "back\\slash", "tab\t"]
let multi = "line1\nline2"
print(multi)
# expect: line1
# expect: line2
print("chained".upper().lower().startswith("ch"))   # expect: true
