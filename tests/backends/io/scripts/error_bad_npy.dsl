write_text(args[0] + "/junk.npy", "not numpy at all")
load(args[0] + "/junk.npy")  # expect error: ValueError: '<tmp>/junk.npy' is not a valid .npy file: it does not start with \x93NUMPY
