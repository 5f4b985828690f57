# Malformed f-strings are refused before the script runs, at the field.
print("never")
print(f"value {1 +} end")    # expect error: SyntaxError: f-string: this field is not an expression
