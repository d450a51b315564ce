#include "lang/number_range.h"

#include <cmath>
#include <cstdio>

namespace fabrik {

bool NumberRange::Contains(double value) const {
  const double as_float = static_cast<float>(value);
  for (const double x : {value, as_float}) {
    if (!std::isfinite(x) || x > highest || (lowest_open ? x <= lowest : x < lowest)) {
      return false;
    }
  }
  return true;
}

std::string RangeAround(const NumberRange& range, std::string_view letter) {
  char text[96];
  std::snprintf(text, sizeof text, "%g %s %.*s <= %g", range.lowest,
                range.lowest_open ? "<" : "<=", static_cast<int>(letter.size()), letter.data(),
                range.highest);
  return text;
}

}  // namespace fabrik
