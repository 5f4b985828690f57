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
