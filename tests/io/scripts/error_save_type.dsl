save(args[0] + "/f.safetensors", {"f": print})  # expect error: TypeError: save(): a builtin (at 'f') cannot be saved
