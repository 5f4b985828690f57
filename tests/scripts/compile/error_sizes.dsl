# An error raised while a compiled function traces names the sizes of the call, as eager code
# does, then the symbols the graph was traced with (it would fail for every size it serves).
@compile
fn layer(x, w) { return linear(x, w) }
layer(ones([8, 4]), ones([16, 4]))
layer(ones([9, 4]), ones([16, 4]))       # the batch size becomes s0
try { layer(ones([8, 3]), ones([16, 4])) } except ShapeError as e { print(e.message) }   # expect: linear: input [8, 3] (traced as [s0, s1]) and weight [16, 4] are incompatible (3 != 4)

@compile(dynamic = true)
fn add(x, y) { return x + y }
try { add(ones([8, 28, 28]), ones([8, 27, 28])) } except ShapeError as e { print(e.message) }   # expect: add: shapes [8, 28, 28] (traced as [s0, s1, s1]) and [8, 27, 28] (traced as [s0, s2, s1]) are not broadcastable (28 != 27 at dim 1)
# The same error eagerly: the same sizes, no symbols.
try { ones([8, 28, 28]) + ones([8, 27, 28]) } except ShapeError as e { print(e.message) }   # expect: add: shapes [8, 28, 28] and [8, 27, 28] are not broadcastable (28 != 27 at dim 1)

@compile(dynamic = true)
fn mm(a, b) { return a @ b }
mm(ones([2, 3]), ones([3, 5]))
# Equal sizes share a symbol (duck sizing): the two 28s are s1.
try { mm(ones([8, 28, 28]), ones([30, 4])) } except ShapeError as e { print(e.message, e.line) }   # expect: matmul: shapes [8, 28, 28] (traced as [s0, s1, s1]) and [30, 4] (traced as [s2, s3]) are incompatible (28 != 30) 16

# Ops written as natives over the table's ops (norms, losses, repeat, einsum) name sizes the same way.
@compile(dynamic = true)
fn norm(x) { return group_norm(x, 5) }
try { norm(ones([2, 8, 9])) } except ShapeError as e { print(e.message) }   # expect: group_norm(): the 8 channels of x [2, 8, 9] (traced as [s0, s1, s2]) are not divisible by groups = 5
@compile(dynamic = true)
fn tile(x, r) { return repeat(x, r) }
try { tile(ones([8, 3]), [2]) } except ValueError as e { print(e.message) }   # expect: repeat(): sizes [2] (traced as [s2]) must have at least the rank of x [8, 3] (traced as [s0, s1])
@compile(dynamic = true)
fn contract(a, b) { return einsum("ij,jk->ik", a, b) }
try { contract(ones([4, 6]), ones([5, 2])) } except ShapeError as e { print(e.message) }   # expect: einsum(): subscript j has size 5 in operand 1 (shape [5, 2] (traced as [s2, s3])), which does not broadcast with its size 6 elsewhere in "ij,jk->ik"
@compile(dynamic = true)
fn sections(x) { return split(x, [2, 2], 1) }
try { sections(ones([2, 8, 9])) } except ValueError as e { print(e.message) }   # expect: split(): sections sum to 4 but dim 1 has size 8
