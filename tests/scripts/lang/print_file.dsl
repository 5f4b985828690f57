# print(..., sep =, end =, file =, flush =) (language.md, "Printing"): file is stdout or stderr;
# what goes to stderr is not in the output checked here (tests/repl checks it reaches stderr).
print("a", "b", sep = "-", end = "!\n")          # expect: a-b!
print("to stderr", file = stderr, flush = true)
print("to stdout", file = stdout, flush = false)  # expect: to stdout
print("none is stdout", file = none)             # expect: none is stdout
stdout.write("partial ")
stdout.write("line\n")                           # expect: partial line
print(stderr.write("x"), stdout.flush())         # expect: none none
print(type(stdout), stdout)                      # expect: module <module stdout>
try { print(1, file = "out.txt") } except TypeError as e { print(e.message) }   # expect: print(): file must be stdout or stderr, not str
try { print(1, flush = 1) } except TypeError as e { print(e.message) }   # expect: print(): flush must be a bool, not int
print(1, fiel = stderr)   # expect error: TypeError: print() got an unexpected keyword argument 'fiel' (did you mean 'file'?)
