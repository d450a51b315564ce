#include "solve_cli/json_line.h"

#include <algorithm>
#include <new>
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

// Builds one line's DOM from nlohmann's SAX events, keeping the line's limits on the way:
//   * in one pass. nlohmann's callback parser, which could discard values, scans the
//     enclosing array for discarded ones at every object's end (quadratic: seconds for a tree
//     of 100,000 nodes); its plain DOM builder inserts keys through ordered_map, which
//     searches every key already there and, growing, copies each member whole (its keys are
//     const, so the vector cannot move them): a big array copied once per key after it.
//     Here members are appended (duplicates are found by a hash set) and an object grows by
//     moving its values;
//   * a value nested too deep is replaced by null and its whole subtree skipped as it is
//     read (never built);
//   * past kMaxJsonValues values the parse stops, so the DOM never holds more.
class LineSax {
 public:
  explicit LineSax(json& root) : root_(root) {}

  bool too_deep = false;
  bool too_many = false;
  std::string duplicate;  // the first key seen twice in one object

  bool null() { return Scalar(json(nullptr)); }
  bool boolean(bool v) { return Scalar(json(v)); }
  bool number_integer(json::number_integer_t v) { return Scalar(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return Scalar(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return Scalar(json(v)); }
  bool string(json::string_t& v) { return Scalar(json(std::move(v))); }
  bool binary(json::binary_t& v) { return Scalar(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return Start(json::object(), true); }
  bool start_array(std::size_t) { return Start(json::array(), false); }
  bool end_object() { return End(true); }
  bool end_array() { return End(false); }
  bool key(json::string_t& k) {
    if (skip_ > 0) return true;
    if (!Count(1)) return false;
    if (!keys_.back().insert(k).second && duplicate.empty()) duplicate = k;
    Members& members = MembersOf(*open_.back());
    if (members.size() == members.capacity()) Grow(members);
    members.emplace_back(std::move(k), nullptr);
    member_ = &members.back().second;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  using Members = std::vector<std::pair<const std::string, json>>;  // ordered_map's base
  static Members& MembersOf(json& object) {
    return static_cast<Members&>(object.get_ref<json::object_t&>());
  }
  // Twice the room, the values moved (only the keys are copied).
  static void Grow(Members& members) {
    Members grown;
    grown.reserve(std::max<std::size_t>(4, 2 * members.size()));
    for (auto& [k, v] : members) grown.emplace_back(k, std::move(v));
    members.swap(grown);
  }
  // A container counts twice: it costs about twice a scalar's memory (its own allocation).
  bool Count(std::size_t weight) {
    values_ += weight;
    if (values_ <= kMaxJsonValues) return true;
    too_many = true;
    return false;
  }
  // Puts `v` where the next value goes: the root, the end of the open array, or the member
  // whose key came last. The open containers' addresses stay valid: a container gains
  // nothing while one inside it is open.
  json& Place(json&& v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return root_;
    }
    json& top = *open_.back();
    if (top.is_array()) {
      auto& array = top.get_ref<json::array_t&>();
      array.push_back(std::move(v));
      return array.back();
    }
    *member_ = std::move(v);
    return *member_;
  }
  bool Scalar(json&& v) {
    if (skip_ > 0) return true;
    if (!Count(1)) return false;
    Place(std::move(v));
    return true;
  }
  bool Start(json&& empty, bool object) {
    if (skip_ > 0) {
      ++skip_;
      return true;
    }
    if (!Count(2)) return false;
    // open_.size() counts the enclosing containers (0 for the line's top value).
    if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      too_deep = true;
      skip_ = 1;
      Place(json(nullptr));
      return true;
    }
    open_.push_back(&Place(std::move(empty)));
    if (object) keys_.emplace_back();
    return true;
  }
  bool End(bool object) {
    if (skip_ > 0) {
      --skip_;
      return true;
    }
    open_.pop_back();
    if (object) keys_.pop_back();
    return true;
  }

  json& root_;
  std::vector<json*> open_;  // the open containers, outermost first
  json* member_ = nullptr;   // where an object's next value goes
  int skip_ = 0;             // open containers of a skipped (too deep) value
  std::size_t values_ = 0;
  std::vector<std::unordered_set<std::string>> keys_;  // one set per open object
};

}  // namespace

void Dismantle(json& value) noexcept {
  if (value.is_array()) {
    auto& array = value.get_ref<json::array_t&>();
    while (!array.empty()) {
      Dismantle(array.back());
      array.pop_back();
    }
  } else if (value.is_object()) {
    // ordered_map is a vector of (key, value) pairs: emptied from the back as an array.
    auto& members = static_cast<std::vector<std::pair<const std::string, json>>&>(
        value.get_ref<json::object_t&>());
    while (!members.empty()) {
      Dismantle(members.back().second);
      members.pop_back();
    }
  }
}

std::string SafeDump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<JsonLine> ParseJsonLine(std::string_view line, std::optional<json>* id) {
  JsonLine out;
  LineSax sax(out.value);
  try {
    json::sax_parse(line.begin(), line.end(), &sax);
  } catch (const std::bad_alloc&) {
    Dismantle(out.value);  // unwinding must not allocate (Dismantle)
    throw;
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
  if (sax.too_many) {
    if (out.value.is_object()) {
      if (const auto it = out.value.find("id"); it != out.value.end()) out.id = *it;
    }
    if (id != nullptr) *id = out.id;
    return MakeError(
        "the request holds more than " + std::to_string(kMaxJsonValues) +
        " JSON values (numbers, strings, keys; arrays and objects count twice): refused "
        "(docs/fabrik-solve.md: Limits)");
  }
  if (sax.too_deep) {
    return MakeError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                     " levels: refused (see docs/fabrik-solve.md: Limits)");
  }
  if (out.value.is_object()) {
    if (const auto it = out.value.find("id"); it != out.value.end()) out.id = *it;
  }
  if (id != nullptr) *id = out.id;
  if (!sax.duplicate.empty()) {
    return MakeError("duplicate key " + SafeDump(json(sax.duplicate)) +
                     " in one object: each key may appear once");
  }
  return out;
}

}  // namespace fabrik::tools
