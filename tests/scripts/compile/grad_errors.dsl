# grad inside @compile: dropout's gradient replays its random mask, which a graph cannot do, so
# differentiating it while tracing is an error at the grad call (eager grad supports it).
print(grad(fn (x) { return dropout(x, 0.0).sum() })(ones([2])).tolist())  # expect: [1.0, 1.0]
@compile
fn d(x) { return grad(fn (x) { return dropout(x, 0.5).sum() })(x) }  # expect error: ValueError: grad: dropout cannot be differentiated inside a compiled function
d(ones([4]))
