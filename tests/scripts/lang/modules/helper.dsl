# Fixture: imported by modules/util.dsl with `import helper` (a sibling of the importer).
let prefix = "hello, "
