// json_util.h - numbers and vectors for the state line (docs/state.md).
#pragma once

#include <cmath>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

namespace fabrik::state_json {

// JSON has no NaN or inf; the state never holds them, but a number that somehow is not
// finite is written as null rather than producing invalid JSON.
inline nlohmann::json Num(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}
inline nlohmann::json Vec(const glm::vec3& v) { return {Num(v.x), Num(v.y), Num(v.z)}; }

}  // namespace fabrik::state_json
