# config fields are checked.
print(config.recompile_limit, config.duck_shape)  # expect: 8 true
config.recompile_limit = 3
print(config.recompile_limit)                     # expect: 3
config.no_such_field = 1  # expect error: NameError: config has no field 'no_such_field'
