# query and key must agree on the embedding size D (torch: a matmul size error).
scaled_dot_product_attention(randn([2, 3, 4]), randn([2, 5, 3]), randn([2, 5, 2]))  # expect error: ShapeError: scaled_dot_product_attention: query [2, 3, 4] and key [2, 5, 3] disagree on the embedding size (4 != 3)
