#include "tools/json_line.h"

#include <unordered_set>
#include <utility>
#include <vector>

namespace fabrik::tools {
namespace {

using json = nlohmann::ordered_json;

// "[json.exception.parse_error.101] parse error at ..." -> "parse error at ...": the bracketed
// id means nothing to a person.
std::string WithoutExceptionId(const char* what) {
  std::string_view s(what);
  if (!s.empty() && s.front() == '[') {
    const std::size_t close = s.find("] ");
    if (close != std::string_view::npos) s.remove_prefix(close + 2);
  }
  return std::string(s);
}

// What the parse callback saw: nlohmann's callback parser builds the DOM iteratively and lets
// the callback discard a value, so a too-deep value is dropped (with its whole subtree) as it
// is read and never built; keys are checked per object as they arrive.
struct Watch {
  bool too_deep = false;
  std::string duplicate;                              // the first key seen twice in one object
  std::vector<std::unordered_set<std::string>> keys;  // one set per open object
};

}  // namespace

std::string SafeDump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Excerpt(std::string_view text, std::size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  std::string s(text.substr(0, max_bytes));
  // Round-trip through the replacing dump so the excerpt is valid UTF-8 (a cut may split a
  // multi-byte character), then drop the quotes.
  std::string dumped = SafeDump(json(s));
  json back = json::parse(dumped, nullptr, false);
  std::string out = back.is_string() ? back.get<std::string>() : std::string();
  if (cut) out += "...";
  return out;
}

Result<JsonLine> ParseJsonLine(std::string_view line, std::optional<json>* id) {
  Watch watch;
  const json::parser_callback_t callback = [&watch](int depth, json::parse_event_t event,
                                                    json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        // `depth` counts the enclosing containers (0 for the line's top value). Children of
        // a discarded value are reported deeper still, so they are discarded too; no
        // object_end is reported for discarded objects, so only kept ones push a key set.
        if (depth >= kMaxJsonDepth) {
          watch.too_deep = true;
          return false;
        }
        if (event == json::parse_event_t::object_start) watch.keys.emplace_back();
        return true;
      case json::parse_event_t::object_end:
        if (!watch.keys.empty()) watch.keys.pop_back();
        return true;
      case json::parse_event_t::key:
        if (depth <= kMaxJsonDepth && !watch.keys.empty() && parsed.is_string()) {
          const auto& key = parsed.get_ref<const std::string&>();
          if (!watch.keys.back().insert(key).second && watch.duplicate.empty()) {
            watch.duplicate = key;
          }
        }
        return true;
      default:
        return true;
    }
  };

  JsonLine out;
  try {
    out.value = json::parse(line.begin(), line.end(), callback);
  } catch (const json::out_of_range& e) {
    // The parser's only out_of_range is a number too large for a double (1e999): valid
    // JSON, but infinite.
    return MakeError(WithoutExceptionId(e.what()) +
                     ": not finite (NaN and inf are not allowed; numbers must fit a double, "
                     "also in \"id\")");
  } catch (const json::exception& e) {
    std::string message = "malformed JSON: " + WithoutExceptionId(e.what());
    if (line.find("NaN") != std::string_view::npos ||
        line.find("Infinity") != std::string_view::npos) {
      message += " (JSON has no NaN or Infinity; they are not allowed here anyway)";
    }
    if (message.find("UTF-8") != std::string::npos) {
      message += " (requests must be UTF-8)";
    }
    return MakeError(std::move(message));
  }
  if (watch.too_deep) {
    return MakeError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                     " levels: refused (see docs/fabrik-solve.md: Limits)");
  }
  if (out.value.is_object()) {
    if (const auto it = out.value.find("id"); it != out.value.end()) out.id = *it;
  }
  if (id != nullptr) *id = out.id;
  if (!watch.duplicate.empty()) {
    return MakeError("duplicate key " + SafeDump(json(watch.duplicate)) +
                     " in one object: each key may appear once");
  }
  return out;
}

}  // namespace fabrik::tools
