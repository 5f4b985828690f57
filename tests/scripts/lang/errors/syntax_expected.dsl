# A syntax error names what was found and what was expected.
let x = 1 +   # expect error: SyntaxError: unexpected end of line, expected an expression
