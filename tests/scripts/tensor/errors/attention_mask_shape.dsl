# A mask must broadcast to the scores' shape [..., T, S]; the session goes on after the error.
let q = randn([3, 4])
let k = randn([5, 4])
print(scaled_dot_product_attention(q, k, k, ones([1, 5]) > 0).shape)  # expect: shape([3, 4])
scaled_dot_product_attention(q, k, k, ones([4, 5]) > 0)  # expect error: ShapeError: scaled_dot_product_attention: attn_mask [4, 5] does not broadcast to the scores' shape [3, 5] (4 != 3)
