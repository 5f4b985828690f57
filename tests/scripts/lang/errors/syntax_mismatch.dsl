# A closing bracket that does not match the open one names both.
let xs = [1, 2
}   # expect error: SyntaxError: closing '}' does not match '[' opened on line 2
