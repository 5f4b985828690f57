# explain(f, args...) on a function with breaks (compiled or plain) begins with the number of
# graphs and breaks, then each break's location and reason. It runs the function once.
fn f(x) {
  let y = x * 2
  print("side effect")
  return y.sum().item()
}
let e = explain(f, ones([3]))  # expect: side effect
let lines = e.split("\n")
print(lines[0])  # expect: graphs: 1, graph breaks: 2
print("explain_breaks.dsl:5: print() is a side effect" in lines[1])  # expect: true
print("explain_breaks.dsl:6: x.item() needs the tensor's data" in lines[2])  # expect: true
print(explain(compile(f), ones([3])).split("\n")[0])  # expect: side effect
                                                      # expect: graphs: 1, graph breaks: 2
@compile
fn g(x) { return x + 1 }
print(explain(g, ones([2])).split("\n")[0])  # expect: graphs: 1, graph breaks: 0
print(stats(g)["compiles"])                  # expect: 0
