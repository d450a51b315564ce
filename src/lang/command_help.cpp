// `help` text: the list of commands, or one command's usage, summary and details, from the
// built-in specs and the app's extensions alike.
#include "lang/command.h"
#include "lang/text.h"

namespace fabrik {

std::vector<std::string> HelpLines(std::string_view topic) {
  return HelpLines(topic, CommandContext{});
}

std::vector<std::string> HelpLines(std::string_view topic,
                                   std::span<const CommandExtension> extensions) {
  CommandContext context;
  context.extensions = extensions;
  return HelpLines(topic, context);
}

std::vector<std::string> HelpLines(std::string_view topic, const CommandContext& context) {
  const std::span<const CommandExtension> extensions = context.extensions;
  auto usage_of = [&](const CommandSpec& spec) {
    return spec.context_usage ? spec.context_usage(context) : std::string(spec.usage);
  };
  std::vector<std::string> lines;
  auto listed = [&](std::string_view usage, std::string_view summary) {
    std::string line = "  " + std::string(usage);
    if (line.size() < 44) line.resize(44, ' ');
    line += "  " + std::string(summary);
    lines.push_back(std::move(line));
  };
  auto explained = [&](std::string_view usage, std::string_view summary,
                       std::span<const std::string_view> details) {
    lines.push_back("usage: " + std::string(usage));
    lines.push_back("  " + std::string(summary));
    for (std::string_view d : details) lines.emplace_back(d);
  };
  if (topic.empty()) {
    lines.emplace_back("commands (help COMMAND for more; # starts a comment):");
    for (const CommandSpec& spec : CommandList()) listed(usage_of(spec), spec.summary);
    for (const CommandExtension& e : extensions) listed(e.usage, e.summary);
    return lines;
  }
  const std::string name = text::Lower(topic);
  if (const CommandSpec* spec = FindCommand(name)) {
    explained(usage_of(*spec), spec->summary, spec->details);
    return lines;
  }
  for (const CommandExtension& e : extensions) {
    if (e.name != name) continue;
    explained(e.usage, e.summary, e.details);
    return lines;
  }
  lines.push_back("help: unknown command " + text::Quote(topic));
  return lines;
}

}  // namespace fabrik
