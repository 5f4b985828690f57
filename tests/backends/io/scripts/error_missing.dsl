# Missing files, folders, unknown extensions, damaged contents: clear errors, never a crash.
let dir = args[0]
write_text(dir + "/junk.npy", "not numpy at all")
print(read_text(dir + "/none.txt"))  # expect error: IOError: cannot open '<tmp>/none.txt': No such file or directory
