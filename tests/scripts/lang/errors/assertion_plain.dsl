# assert without a message.
assert 1 == 2   # expect error: AssertionError: assertion failed
