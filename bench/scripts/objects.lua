-- Method- and dict-heavy work, the same as objects.dsl (Lua 5.4 baseline; globals at top level
-- as in Tessel, tables with string keys as the records).
function point(x, y) return {x = x, y = y} end
function add(p, q) return point(p["x"] + q["x"], p["y"] + q["y"]) end
function manhattan(p) return math.abs(p["x"]) + math.abs(p["y"]) end
function account(name) return {name = name, balance = 0, history = {}} end
function deposit(acct, amount)
  acct["balance"] = acct["balance"] + amount
  local h = acct["history"]
  h[#h + 1] = amount
end
function last_or(xs, default)
  if #xs == 0 then return default end
  return xs[#xs]
end
local t = os.clock()
names = {"ann", "bob", "cy", "dee", "eve"}
accounts = {}
for i = 0, 99 do accounts[#accounts + 1] = account(names[i % 5 + 1] .. tostring(i)) end
p = point(0, 0)
step = point(1, -2)
tally = {}
-- Insertion order, as Tessel's and Python's dicts keep it.
order = {}
for round_ = 0, 199 do
  for _, a in ipairs(accounts) do
    deposit(a, round_ % 13)
    p = add(p, step)
    local key = a["name"]
    if tally[key] == nil then order[#order + 1] = key end
    tally[key] = (tally[key] or 0) + last_or(a["history"], 0)
  end
end
richest = ""
best = -1
for _, name in ipairs(order) do
  if tally[name] > best then
    best = tally[name]
    richest = name
  end
end
print(manhattan(p), richest, best, (os.clock() - t) * 1000)
