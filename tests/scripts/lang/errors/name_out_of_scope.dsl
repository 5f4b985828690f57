# A let inside a block is gone after the block.
if true { let inner = 1 }
print(inner)   # expect error: NameError: name 'inner' is not defined
