# An except of a kind that does not exist is refused before the script runs.
print("never")
try { f() } except NoSuchError { }   # expect error: SyntaxError: unknown error kind 'NoSuchError'
