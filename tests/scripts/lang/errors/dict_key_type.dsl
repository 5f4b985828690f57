# Dict keys are strings.
let d = {}
d[1] = 2   # expect error: TypeError: dict keys are str, not 'int'
