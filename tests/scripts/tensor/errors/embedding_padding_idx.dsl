# padding_idx names a row of the table (torch asserts "Padding_idx must be within num_embeddings").
print(embedding(tensor([0]), ones([4, 3]), padding_idx = 4))  # expect error: ValueError: embedding(): padding_idx 4 is out of range for 4 embeddings
