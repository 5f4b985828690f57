# A class-index target must have the input's size without the class dim (torch: "Expected input batch_size (3) to match target batch_size (2)").
print(cross_entropy(zeros([3, 4]), tensor([0, 1, 2])).item())  # expect: 1.3862943649291992
cross_entropy(zeros([3, 4]), tensor([0, 1]), reduction = "sum")  # expect error: ShapeError: cross_entropy(): expects a target of size [3] for input [3, 4], got [2]
