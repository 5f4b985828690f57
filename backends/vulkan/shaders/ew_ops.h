// Op codes of elementwise.comp, shared by GLSL and C++ (a plain list of #defines both read).
#ifndef TESSEL_VK_EW_OPS_H
#define TESSEL_VK_EW_OPS_H

#define DT_BOOL 0u
#define DT_I32 1u
#define DT_F32 2u

// Unary (operand a); the elementwise unary ops are all defined ones (codes from 64).
#define EW_COPY 14u
#define EW_NONZERO 15u
// Binary (a, b); operand 3 is the error flag word for integer floordiv/mod/pow.
#define EW_ADD 20u
#define EW_SUB 21u
#define EW_MUL 22u
#define EW_DIV 23u
#define EW_FLOORDIV 24u
#define EW_MOD 25u
#define EW_POW 26u
#define EW_MAXIMUM 27u
#define EW_MINIMUM 28u
#define EW_EQ 29u
#define EW_NE 30u
#define EW_LT 31u
#define EW_LE 32u
#define EW_GT 33u
#define EW_GE 34u
#define EW_AND 35u
#define EW_OR 36u
#define EW_SQDIFF 37u
#define EW_GELU_BACKWARD 38u  // g * gelu'(x): a = g, b = x
#define EW_FIRST_BINARY 20u
// Ternary (a, b, c).
#define EW_WHERE 40u
#define EW_CLAMP 41u
#define EW_FIRST_TERNARY 40u
// The ops of ops/elementwise.ops take codes from 64 on (tools/opgen.py): unary from 64, binary
// from 128, ternary from 192; the generated ewDefinedF/ewDefinedI run them.
#define EW_FIRST_DEFINED 64u
#define EW_FIRST_DEFINED_BINARY 128u
#define EW_FIRST_DEFINED_TERNARY 192u

// Variant bits above the op and dtypes (Note [Linear elementwise] in elementwise.comp).
#define EW_LINEAR 0x10000000u
#define EW_VEC4 0x20000000u
#define EW_VEC8 0x40000000u

// Error flag bits (word 0 of the flag buffer).
#define FLAG_INT_DIV_ZERO 1u
#define FLAG_NEG_EXPONENT 2u
#define FLAG_BAD_INDEX 4u

#endif
