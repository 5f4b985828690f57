# query, key and value are [..., L, E]: a 1-D query is a ShapeError naming its shape.
scaled_dot_product_attention(randn([4]), randn([5, 4]), randn([5, 4]))  # expect error: ShapeError: scaled_dot_product_attention: query needs at least 2 dims [..., L, E], got [4]
