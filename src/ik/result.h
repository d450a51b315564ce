// result.h - a value or a human-readable error, for every fallible call in the project.
//
// Fallible work (building a chain, parsing a file, compiling a shader) returns Result<T>.
// An error is a message meant for a person: it names the thing that is wrong ("joints[2]
// coincides with joints[1]: zero-length segment"), never just a code. Nothing here throws.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace fabrik {

// The error half of a Result: a message for a person.
struct Error {
  std::string message;
};

// Holds either a T or an Error. Check ok() before value(); value() on an error is a bug.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}        // NOLINT: implicit on purpose
  Result(Error error) : data_(std::move(error)) {}    // NOLINT: implicit on purpose

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }

  // The error message; empty when ok().
  const std::string& error() const {
    static const std::string kEmpty;
    return ok() ? kEmpty : std::get<1>(data_).message;
  }

 private:
  std::variant<T, Error> data_;
};

// Result for calls that produce nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

inline Error MakeError(std::string message) { return Error{std::move(message)}; }

}  // namespace fabrik
