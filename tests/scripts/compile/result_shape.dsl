# A declared result shape is proven from the traced graph; one that cannot be proven fails the
# compile with both shapes.
@compile
fn good(x: f32[B, 4], w: f32[4, H]) -> f32[B, H] { return x @ w }
print(good(ones([3, 4]), ones([4, 2])).shape)  # expect: shape([3, 2])
@compile
fn bad(x: f32[B, 4]) -> f32[B, 4] { return x[1:] }
bad(ones([5, 4]))  # expect error: ShapeError: the declared result f32[B, 4] of bad() could not be proven for the traced result f32[4, 4] (traced as [s0 - min(s0, 1), 4])
