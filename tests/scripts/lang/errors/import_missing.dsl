# Imports that cannot be found.
import no_such_module_anywhere   # expect error: ImportError: no module 'no_such_module_anywhere'
