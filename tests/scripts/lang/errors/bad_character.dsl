# Characters outside the language.
let a = 1 $ 2   # expect error: SyntaxError: unexpected character '$'
