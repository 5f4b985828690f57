save(args[0] + "/model.bin", tensor([1.0]))  # expect error: ValueError: save(): cannot tell the format of '<tmp>/model.bin' from its extension
