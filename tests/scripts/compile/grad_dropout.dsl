# grad of dropout inside @compile and on the tpu: the traced gradient spells dropout with its
# mask as a value (Note [Traced dropout]), drawing the same random words as eager dropout, so
# gradients and values equal eager ones bit for bit.
fn loss(w, x) { return (dropout(x * w, 0.3) * x).sum() }
seed(5)
let x = randn([6, 5])
let w = randn([6, 5])
seed(11)
let eager = grad(loss)(w, x)
print(eager.sum().item() != 0.0, (eager == 0.0).any().item())  # expect: true true
@compile
fn compiled(w, x) { return grad(loss)(w, x) }
seed(11)
print((compiled(w, x) == eager).all().item())   # expect: true
seed(11)
print((compiled(w, x) == eager).all().item())   # expect: true
print(stats(compiled)["compiles"])              # expect: 1
seed(11)
let on_tpu = grad(loss)(w.to("tpu"), x.to("tpu"))
print((on_tpu.to(eager.device) == eager).all().item())  # expect: true
# (tpu random ops draw when their program runs: read the value before seeding again.)
seed(11)
let on_tpu_value = value_and_grad(loss)(w.to("tpu"), x.to("tpu"))[0].item()
seed(11)
print(abs(on_tpu_value - loss(w, x).item()) < 1e-5)  # expect: true
# p = 0 keeps everything, p = 1 drops everything.
print(grad(fn (x) { return dropout(x, 0.0).sum() })(ones([2]).to("tpu")).tolist())  # expect: [1.0, 1.0]
@compile
fn all_dropped(x) { return grad(fn (x) { return dropout(x, 1.0).sum() })(x) }
print(all_dropped(ones([3])).tolist())           # expect: [0.0, 0.0, 0.0]
