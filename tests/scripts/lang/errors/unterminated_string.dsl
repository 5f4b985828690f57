# Strings end on their line.
let s = "abc   # expect error: SyntaxError: unterminated string
