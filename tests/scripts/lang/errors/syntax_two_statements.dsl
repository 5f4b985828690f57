# Two simple statements on one line need a ";".
print(1) print(2)   # expect error: SyntaxError: unexpected 'print', expected ';' or end of line
