# The model examples/embed/main.cpp loads: a small classifier, 4 features -> 16 (relu) -> 3
# class probabilities. Its weights are random (seeded); a real app would load trained ones.
import nn

seed(13)
let params = nn.mlp_init([4, 16, 3])

# One graph for every batch size: the app calls this with batches of 1 to 64 rows.
@compile
fn predict(x) {
  return softmax(nn.mlp_apply(params, x), dim = 1)
}
