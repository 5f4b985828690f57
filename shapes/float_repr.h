// repr() of a float as Python prints it: the shortest digits that read back as the same double,
// positional for exponents in [-4, 16) ("0.0001", "8.0"), scientific otherwise ("1e-05", "1e+16").
#pragma once

#include <string>

namespace tessel::shapes {

std::string floatRepr(double d);

}  // namespace tessel::shapes
