# Outside the scratch folder: the policy refuses, naming the path and the policy.
read_text(args[0] + "/../../etc/passwd")  # expect error: IOError: '<tmp>/../../etc/passwd': cannot read /etc/passwd: outside the file policy (read-write under <tmp>)
