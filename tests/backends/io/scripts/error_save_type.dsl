save(args[0] + "/f.safetensors", {"f": print})  # expect error: TypeError: save(): a function (at 'f') cannot be saved
