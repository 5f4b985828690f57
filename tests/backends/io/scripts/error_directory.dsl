read_text(args[0])  # expect error: IOError: '<tmp>': is a directory, not a file
