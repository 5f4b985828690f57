# Imported by imports.dsl with `import sibling`; also runs as its own script.
let VALUE = 7
print("sibling ran")   # expect: sibling ran
