# Using a name that was never declared.
print("before")   # expect: before
print(undefined_thing)   # expect error: NameError: name 'undefined_thing' is not defined
