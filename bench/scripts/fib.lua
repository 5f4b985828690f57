-- Recursive calls: fib(27). Prints the result and the time in ms (Lua 5.4 baseline).
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
local t = os.clock()
local r = fib(27)
print(r, (os.clock() - t) * 1000)
