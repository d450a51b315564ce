// Tab completion of console lines, from the built-in specs' and the extensions' keywords,
// and of paths from the files on disk.
#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "lang/command.h"
#include "lang/text.h"

namespace fabrik {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Files and folders whose path starts with `partial`, looked up in the working directory
// and then each search root; returned as `partial` would be completed (folders end in '/').
std::vector<std::string> CompletePath(std::string_view partial, const CommandContext& context) {
  const std::size_t slash = partial.rfind('/');
  const std::string dir_part =
      slash == std::string_view::npos ? "" : std::string(partial.substr(0, slash + 1));
  const std::string file_part(slash == std::string_view::npos ? partial
                                                              : partial.substr(slash + 1));
  std::vector<std::filesystem::path> bases;
  const std::filesystem::path dir(dir_part.empty() ? "." : dir_part);
  bases.push_back(dir);
  if (!dir.is_absolute()) {
    for (const std::string& root : context.search_roots) {
      if (!root.empty()) bases.push_back(std::filesystem::path(root) / dir);
    }
  }
  std::set<std::string> found;
  constexpr std::size_t kMaxEntries = 256;
  for (const auto& base : bases) {
    std::error_code ec;
    std::filesystem::directory_iterator it(base, ec), end;
    for (; !ec && it != end && found.size() < kMaxEntries; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!StartsWith(name, file_part)) continue;
      if (!name.empty() && name[0] == '.' && (file_part.empty() || file_part[0] != '.')) {
        continue;
      }
      std::error_code type_ec;
      const bool is_dir = it->is_directory(type_ec);
      found.insert(dir_part + name + (is_dir ? "/" : ""));
    }
  }
  return {found.begin(), found.end()};
}

bool Contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> Complete(std::string_view prefix, const CommandContext* context) {
  // Split on whitespace; quotes are not handled (Tab on a quoted path completes nothing).
  std::vector<std::string> words;
  {
    std::size_t i = 0;
    while (i < prefix.size()) {
      while (i < prefix.size() && (prefix[i] == ' ' || prefix[i] == '\t')) ++i;
      const std::size_t start = i;
      while (i < prefix.size() && prefix[i] != ' ' && prefix[i] != '\t') ++i;
      if (i > start) words.emplace_back(prefix.substr(start, i - start));
    }
  }
  const bool trailing_space = !prefix.empty() && (prefix.back() == ' ' || prefix.back() == '\t');
  if (!words.empty() && words[0].find('#') != std::string::npos) return {};
  const std::string partial = (trailing_space || words.empty()) ? "" : words.back();
  const std::string head(prefix.substr(0, prefix.size() - partial.size()));
  // Index of the word being completed: 0 is the command name.
  const std::size_t index = (trailing_space || words.empty()) ? words.size() : words.size() - 1;
  const std::string lowered = text::Lower(partial);
  const std::span<const CommandExtension> extensions =
      context != nullptr ? context->extensions : std::span<const CommandExtension>();

  std::vector<std::string> out;
  // Adds `candidate` if it extends what was typed; `more` when further words must follow.
  auto offer = [&](std::string_view candidate, bool more) {
    if (StartsWith(candidate, lowered)) {
      out.push_back(head + std::string(candidate) + (more ? " " : ""));
    }
  };

  if (index == 0) {
    for (const CommandSpec& spec : CommandList()) offer(spec.name, spec.name_takes_words);
    for (const CommandExtension& e : extensions) offer(e.name, true);
  } else {
    const std::string name = text::Lower(words[0]);
    const std::string sub = words.size() > 1 ? text::Lower(words[1]) : "";
    const CommandSpec* spec = FindCommand(name);
    if (index == 1 && spec != nullptr) {
      for (std::string_view k : spec->keywords) offer(k, Contains(spec->keywords_taking_words, k));
      if (spec->context_keywords != nullptr) {
        std::vector<std::string_view> more;
        spec->context_keywords(context, more);
        for (std::string_view k : more) offer(k, false);
      }
    } else if (index == 1) {
      for (const CommandExtension& e : extensions) {
        if (e.name != name) continue;
        for (std::string_view k : e.keywords) offer(k, false);
      }
    } else if (index == 2 && context != nullptr && spec != nullptr && !spec->path_after.empty() &&
               sub == spec->path_after) {
      for (const std::string& p : CompletePath(partial, *context)) out.push_back(head + p);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<std::string> CompleteCommand(std::string_view prefix) {
  return Complete(prefix, nullptr);
}

std::vector<std::string> CompleteCommand(std::string_view prefix, const CommandContext& context) {
  return Complete(prefix, &context);
}

std::string CommonPrefix(std::span<const std::string> candidates) {
  if (candidates.empty()) return "";
  std::string prefix = candidates[0];
  for (const std::string& c : candidates.subspan(1)) {
    std::size_t n = 0;
    while (n < prefix.size() && n < c.size() && prefix[n] == c[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

}  // namespace fabrik
