save(args[0] + "/x.npy", tensor([1.0]), compress = true)  # expect error: ValueError: save(): compress = true applies to .npz files only
