# display(v) outside a notebook prints the value's repr, as the REPL echoes it (in the Jupyter
# kernel it publishes rich output instead: tests/kernel/kernel_test.py).
display("hi")          # expect: "hi"
display([1, "a"])      # expect: [1, "a"]
display(ones([2]))     # expect: tensor([1., 1.])
let shown = display(2) # expect: 2
print(shown)           # expect: none
display()              # expect error: display() missing argument 'value'
