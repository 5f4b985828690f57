# A second derivative through scaled_dot_product_attention: its gradient ops have no gradient,
# so this is an error rather than a silently wrong answer (it would count the attention as a
# constant). The first derivative works.
seed(0)
let q = randn([1, 3, 4])
fn f(x) { return scaled_dot_product_attention(x, x, x).sum() }
print(grad(f)(q).shape)  # expect: shape([1, 3, 4])
grad(fn (x) { return (grad(f)(x) ** 2).sum() })(q)  # expect error: TypeError: grad: the second derivative of scaled_dot_product_attention is not supported (attention_logsumexp, in its gradient, has no gradient)
