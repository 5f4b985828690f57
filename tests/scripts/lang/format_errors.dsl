# Bad format specs and fields are ValueErrors (IndexError/KeyError for missing arguments).
try { format(1, "q") } except ValueError as e { print(e.message) }   # expect: bad format spec 'q': unknown type 'q'
try { "{} {}".format(1) } except IndexError as e { print(e.message) }   # expect: format field {1} but 1 positional arguments
try { "{x}".format() } except KeyError as e { print(e.message) }   # expect: format field {x} has no argument of that name
try { "{} {0}".format(1) } except ValueError as e { print(e.message) }   # expect: cannot mix {} and {0} fields in one format string
print(f"{[1, 2]:>5}")   # expect error: TypeError: a 'list' takes no format spec ('>5')
