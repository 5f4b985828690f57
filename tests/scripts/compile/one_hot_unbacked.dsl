# one_hot(x) with num_classes = -1 has the data-dependent width max(x) + 1: under @compile an
# unbacked size (no graph break, one graph for every width), and class values outside
# [0, num_classes) fail at run time with one_hot's own message, as eagerly. (The second compile
# is automatic dynamic making x's length a symbol; the width was unbacked in both.)
@compile(fullgraph = true)
fn encode(x) { return one_hot(x) * 2 }
print(encode(tensor([2, 0])).tolist(), encode(tensor([1, 4, 3])).shape)  # expect: [[0, 0, 2], [2, 0, 0]] shape([3, 5])
print(encode(tensor([0, 0, 1, 0])).shape, stats(encode)["graph_breaks"], stats(encode)["compiles"])  # expect: shape([4, 2]) 0 2
@compile
fn fixed(x) { return one_hot(x, 4) }
print(fixed(tensor([3, 0])).tolist(), fixed(tensor([1, 2, 0])).sum().item())  # expect: [[0, 0, 0, 1], [1, 0, 0, 0]] 3
print(encode(tensor([1, -1, 0])))  # expect error: ValueError: one_hot(): class values must be non-negative
