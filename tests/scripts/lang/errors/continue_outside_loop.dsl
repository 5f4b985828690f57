# continue needs a loop.
continue   # expect error: SyntaxError: 'continue' outside a loop
