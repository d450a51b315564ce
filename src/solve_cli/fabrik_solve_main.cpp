// fabrik-solve: the headless solver (docs/fabrik-solve.md). JSON Lines requests in, one JSON
// response line per request out, in order, flushed after each, so it works as a co-process.
// Request and response formats: tools/solve_request.h.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <string>

#include "solve_cli/line_reader.h"
#include "solve_cli/solve_request.h"

namespace {

// The answer to a request that ran out of memory (under a memory limit, `ulimit -v`): a
// constant, so writing it allocates nothing.
constexpr const char* kOutOfMemory =
    "{\"ok\":false,\"error\":\"out of memory while reading or answering this request (the "
    "process's memory limit): refused, the next request is answered as usual\"}";

// Answers every line of `in` on `out`. A bad line gets an {"ok": false, ...} answer and the
// loop goes on; a blank line gets no answer. Returns false on a read error.
bool Serve(std::istream& in, std::ostream& out) {
  std::string line;
  for (long long number = 1;; ++number) {
    const fabrik::tools::LineStatus status = fabrik::tools::ReadLine(in, line);
    if (status == fabrik::tools::LineStatus::kEnd) break;
    if (status == fabrik::tools::LineStatus::kTooLong) {
      out << fabrik::tools::TooLongResponse(number) << '\n' << std::flush;
      continue;
    }
    if (status == fabrik::tools::LineStatus::kNoMemory) {
      out << kOutOfMemory << '\n' << std::flush;
      continue;
    }
    std::optional<std::string> response;
    try {
      response = fabrik::tools::HandleLine(line);
    } catch (const std::bad_alloc&) {
      // Everything the request built is freed by now.
      out << kOutOfMemory << '\n' << std::flush;
      continue;
    }
    if (response) out << *response << '\n' << std::flush;
  }
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "fabrik-solve: solve inverse-kinematics requests given as JSON Lines.\n"
      "Reads one JSON request per line from FILE (or stdin when FILE is absent or \"-\") and\n"
      "writes one JSON response per request to stdout, in order, flushed after each line.\n"
      "Blank lines are skipped without a response; a bad line gets {\"ok\": false, \"error\": "
      "...}\n"
      "and the next line is read as usual. Limits (a line of at most 8 MiB, JSON nested at\n"
      "most 64 deep, at most 2000000 JSON values, at most 100000 joints, bounded work per\n"
      "request): see docs/fabrik-solve.md.\n"
      "\n"
      "request:  {\"joints\": [[x,y,z], ...], \"target\": [x,y,z], \"tolerance\": 0.01,\n"
      "           \"max_iterations\": 10, \"solver\": \"fabrik\", \"id\": ...}\n"
      "          (solver and id optional; id is echoed back)\n"
      "response: {\"ok\": true, \"joints\": [[x,y,z], ...], \"iterations\": 3, \"distance\": "
      "0.0007,\n"
      "           \"reached\": true, \"reachable\": true, \"solver\": \"fabrik\", \"solve_us\": "
      "1.2}\n"
      "       or {\"ok\": false, \"error\": \"joints[2] coincides with joints[1]: zero-length "
      "segment\"}",
      "fabrik-solve"};
  std::string file;
  app.add_option("FILE", file, "read requests from this file instead of stdin (\"-\": stdin)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "fabrik-solve: " << e.what() << " (see --help)\n";
    return 2;
  }

  std::ios::sync_with_stdio(false);
  bool read_ok = true;
  if (file.empty() || file == "-") {
    read_ok = Serve(std::cin, std::cout);
  } else {
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
      std::cerr << "fabrik-solve: cannot read " << file << ": it is a directory\n";
      return 2;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "fabrik-solve: cannot read " << file << ": " << std::strerror(errno) << '\n';
      return 2;
    }
    read_ok = Serve(in, std::cout);
  }
  if (!read_ok) {
    std::cerr << "fabrik-solve: read error on " << (file.empty() ? "-" : file) << '\n';
    return 1;
  }
  return 0;
}
