# import by path (with and without `as`), by name beside the script, caching, module attributes.
import "modules/util.dsl" as util
print(util.double(21), util.loaded, util.counter)   # expect: 42 true 0
print(util.bump(), util.bump(), util.counter)       # expect: 1 2 2
print(util.greet("tessel"))                          # expect: hello, tessel
import "modules/util.dsl"                            # binds the file's stem; the module runs once
print(util.counter)                                  # expect: 2
import "modules/helper.dsl" as h1
import "modules/helper.dsl" as h2
print(h1 == h2, type(h1))                            # expect: true module
fn local() {
  import "modules/helper.dsl" as inner               # an import inside a fn binds a local
  return inner.prefix
}
print(local())                                       # expect: hello, 
import sibling                                       # `import name` looks beside the script first  # expect: sibling ran
print(sibling.VALUE)                                 # expect: 7
