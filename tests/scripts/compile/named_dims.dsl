# Named dimensions are dynamic from the first compile; where-clauses are facts, and a call
# that breaks them fails before any work.
@compile
fn mlp(x: f32[B, 4], w: f32[4, H]) -> f32[B, H] where B >= 1, B <= 64 {
  return relu(x @ w)
}
let w = ones([4, 3])
for b in [2, 5, 9] { mlp(ones([b, 4]), w) }
print(stats(mlp)["compiles"])   # expect: 1
print(mlp(ones([2, 4]), w).shape)  # expect: shape([2, 3])
mlp(ones([100, 4]), w)  # expect error: ShapeError: mlp(): constraint 'B <= 64' does not hold
