// The command language's front: the list of built-in commands (one CommandSpec each, from
// the group files lang/commands/*.cpp), parsing a line by the spec of its first word, and the
// generic Validate / Format / name of any parsed command.
#include "lang/command.h"

#include <filesystem>
#include <type_traits>

#include "lang/command_parse.h"

namespace fabrik {

using namespace command_parse;

namespace {

// The groups, in the order `help` lists them; each file's commands are listed in it once.
using Group = std::span<const CommandSpec> (*)();
constexpr Group kGroups[] = {ChainCommands, PlaybackCommands, SessionCommands, ViewCommands};

std::vector<CommandSpec> JoinGroups() {
  std::vector<CommandSpec> all;
  for (Group group : kGroups) {
    for (const CommandSpec& spec : group()) all.push_back(spec);
  }
  return all;
}

}  // namespace

std::span<const CommandSpec> CommandList() {
  static const std::vector<CommandSpec> list = JoinGroups();  // constant after first use
  return list;
}

const CommandSpec* FindCommand(std::string_view name) {
  for (const CommandSpec& spec : CommandList()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

Result<Command> ParseCommandWords(std::span<const std::string> words,
                                  const CommandContext& context) {
  if (words.empty()) return Command(cmd::Nothing{});
  const std::string name = text::Lower(words[0]);
  const Words args = words.subspan(1);
  if (const CommandSpec* spec = FindCommand(name)) return spec->parse(args, context);
  if (name == "at") {
    return MakeError("'at T COMMAND' belongs in script files; type the command by itself");
  }
  for (const CommandExtension& e : context.extensions) {
    if (e.name != name) continue;
    if (e.on_off) {
      Result<bool> on = ParseOnOff(name, args);
      if (!on.ok()) return MakeError(on.error());
      return Command(cmd::Extension{name, {on.value() ? "on" : "off"}});
    }
    if (e.parse == nullptr) continue;
    Result<std::vector<std::string>> parsed = e.parse(args);
    if (!parsed.ok()) return MakeError(parsed.error());
    return Command(cmd::Extension{name, std::move(parsed).value()});
  }
  return MakeError("unknown command " + text::Quote(words[0]) + " (type 'help' for the list)");
}

Result<Command> ParseCommand(std::string_view line, const CommandContext& context) {
  Result<std::vector<std::string>> words = text::Tokenize(line);
  if (!words.ok()) return MakeError(words.error());
  return ParseCommandWords(words.value(), context);
}

Status ValidateCommand(const Command& command) {
  return std::visit([](const auto& c) { return c.Validate(); }, command);
}

std::string FormatCommand(const Command& command) {
  return std::visit([](const auto& c) { return c.Format(); }, command);
}

std::string_view CommandName(const Command& command) {
  return std::visit(
      [](const auto& c) -> std::string_view {
        if constexpr (std::is_same_v<std::decay_t<decltype(c)>, cmd::Extension>) {
          return c.name;
        } else {
          return c.kName;
        }
      },
      command);
}

namespace cmd {

std::string Nothing::Format() const { return ""; }
Status Nothing::Validate() const { return Ok{}; }

std::string Extension::Format() const {
  std::string out = name;
  for (const std::string& a : args) {
    out += ' ';
    out += FormatPath(a);
  }
  return out;
}
Status Extension::Validate() const {
  if (!name.empty() && FindCommand(name) == nullptr) return Ok{};
  return MakeError("extension: not a name of its own");
}

}  // namespace cmd

std::string ResolveDataPath(std::string_view path, std::span<const std::string> search_roots) {
  const std::filesystem::path p{std::string(path)};
  if (path.empty() || p.is_absolute() || Exists(std::string(path))) return std::string(path);
  for (const std::string& root : search_roots) {
    if (root.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(root) / p;
    if (Exists(candidate.string())) return candidate.string();
  }
  return std::string(path);
}

}  // namespace fabrik
