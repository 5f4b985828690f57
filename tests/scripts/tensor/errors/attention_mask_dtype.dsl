# Masks are bool (true = take part) or f32 (added to the scores); an i32 mask is a TypeError.
let q = randn([3, 4])
scaled_dot_product_attention(q, q, q, ones([3, 3], dtype = i32))  # expect error: TypeError: scaled_dot_product_attention: attn_mask must be bool or f32, got i32
