# if needs a block.
let n = 1
if n > 0 print(n)   # expect error: SyntaxError: unexpected 'print', expected '{'
