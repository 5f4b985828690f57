-- Loop-heavy work, the same as loops.dsl (Lua 5.4 baseline; globals at top level as in Tessel).
function mix(a, b) return (a * 31 + b) % 1000003 end
local t = os.clock()
acc = 0
xs = {}
for i = 0, 299 do
  for j = 0, 299 do
    acc = mix(acc, i * j + j)
  end
  xs[#xs + 1] = acc % 97
end
counts = {}
keys = {"a", "b", "c", "d", "e", "f", "g"}
for round_ = 0, 199 do
  for k = 1, #xs do
    local key = keys[xs[k] % 7 + 1]
    counts[key] = (counts[key] or 0) + xs[k]
  end
end
total = 0
i = 0
while i < 100000 do
  total = total + i % 7
  if total > 1000 then total = total - 1000 end
  i = i + 1
end
print(acc, counts["a"], total, (os.clock() - t) * 1000)
