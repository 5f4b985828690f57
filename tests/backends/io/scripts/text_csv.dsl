# Text files, lines, .gz, and CSV tables.
let dir = args[0]
write_text(dir + "/a.txt", "one\ntwo\r\nthree")
print(read_text(dir + "/a.txt") == "one\ntwo\r\nthree")  # expect: true
print(read_lines(dir + "/a.txt"))  # expect: ["one", "two", "three"]
write_text(dir + "/a.txt.gz", "packed\ntext\n")
print(read_lines(dir + "/a.txt.gz"))  # expect: ["packed", "text"]
write_text(dir + "/t.csv", "x,y,label\n1.5, 2,0\n-3,4e1,1\n\n5,\"6\",2\n")
let t = load_csv(dir + "/t.csv", skip_header = 1)
print(t.dtype, t.tolist())  # expect: f32 [[1.5, 2.0, 0.0], [-3.0, 40.0, 1.0], [5.0, 6.0, 2.0]]
let labels = load_csv(dir + "/t.csv", skip_header = 1, columns = [-1], dtype = i32)
print(labels.dtype, labels.tolist())  # expect: i32 [[0], [1], [2]]
write_text(dir + "/t.tsv.gz", "1\t2\n3\t4\n")
print(load_csv(dir + "/t.tsv.gz", delimiter = "\t").tolist())  # expect: [[1.0, 2.0], [3.0, 4.0]]
write_text(dir + "/bad.csv", "1,2\n3,x\n")
load_csv(dir + "/bad.csv")  # expect error: ValueError: '<tmp>/bad.csv': line 2, column 2: 'x' is not a number
