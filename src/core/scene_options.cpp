#include "core/scene_options.h"

#include <utility>

namespace fabrik {

SceneOptionValue& SceneOptionValues::Slot(std::string_view name) {
  for (SceneOptionValue& v : values_) {
    if (v.name == name) return v;
  }
  values_.push_back({std::string(name), 0.0, {}});
  return values_.back();
}

const SceneOptionValue* SceneOptionValues::Find(std::string_view name) const {
  for (const SceneOptionValue& v : values_) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

void SceneOptionValues::SetNumber(std::string_view name, double number) {
  Slot(name).number = number;
}

void SceneOptionValues::SetText(std::string_view name, std::string text) {
  Slot(name).text = std::move(text);
}

bool SceneOptionValues::Given(std::string_view name) const { return Find(name) != nullptr; }

double SceneOptionValues::Number(std::string_view name, double fallback) const {
  const SceneOptionValue* v = Find(name);
  return v != nullptr ? v->number : fallback;
}

const std::string& SceneOptionValues::Text(std::string_view name) const {
  static const std::string kNone;
  const SceneOptionValue* v = Find(name);
  return v != nullptr ? v->text : kNone;
}

}  // namespace fabrik
