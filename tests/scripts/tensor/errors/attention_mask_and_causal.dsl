# attn_mask and is_causal together are refused (PyTorch 2 refuses them; 1.13 silently drops
# is_causal).
let q = randn([3, 4])
scaled_dot_product_attention(q, q, q, attn_mask = ones([3, 3]) > 0, is_causal = true)  # expect error: ValueError: scaled_dot_product_attention(): give attn_mask or is_causal = true, not both
