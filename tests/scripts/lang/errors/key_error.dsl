# Missing dict keys.
let d = {"a": 1}
print(d["b"])   # expect error: KeyError: key "b" not in dict
