#include "cli/command_line.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string_view>

#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command_table.h"
#include "cli/flag_readers.h"
#include "rffstream/checkpoint.h"
#include "rffstream/simd.h"
#include "rffstream/version.h"

namespace rffstream::app {
namespace {

// The name of a flag argument ("--name=value", "-name", "--noname"), or ""
// for a positional argument or a lone "-".
std::string_view FlagName(std::string_view argument) {
  if (argument.size() < 2 || argument[0] != '-') return {};
  argument.remove_prefix(argument[1] == '-' ? 2 : 1);
  return argument.substr(0, argument.find('='));
}

bool IsHelpFlag(std::string_view name) {
  return name == "help" || name == "h" || name == "helpfull" || name == "helpshort" ||
         name == "helpon" || name == "helpmatch" || name == "helppackage";
}

// Levenshtein distance, for suggestions.
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The app's own flags (defined under apps/), by name.
std::map<std::string, const absl::CommandLineFlag*> AppFlags() {
  std::map<std::string, const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (flag->Filename().find("apps/") != std::string::npos) flags.emplace(std::string(name), flag);
  }
  return flags;
}

// `text` in lines of at most `width` columns, each after `indent`.
void PrintWrapped(std::FILE* out, std::string_view text, std::size_t indent, std::size_t width) {
  const std::size_t room = width - indent;
  while (!text.empty()) {
    std::size_t cut = text.size();
    if (cut > room) {
      cut = text.rfind(' ', room);
      if (cut == std::string_view::npos || cut == 0) cut = room;
    }
    std::fprintf(out, "%*s%.*s\n", static_cast<int>(indent), "", static_cast<int>(cut), text.data());
    text.remove_prefix(cut);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  }
}

// "--flag value": a known non-boolean flag without "=" takes the next
// argument as its value, which is then not a flag of its own.
bool TakesNextArgument(const std::string& argument) {
  const std::string_view name = FlagName(argument);
  if (name.empty() || argument.find('=') != std::string::npos) return false;
  const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(std::string(name));
  return flag != nullptr && !flag->IsOfType<bool>();
}

// Abseil's own flags that bring more flags (a file of them, the
// environment) or excuse unknown ones: with these, Abseil checks alone.
bool UsesAbseilFlagSources(const std::vector<std::string>& arguments) {
  return std::any_of(arguments.begin() + 1, arguments.end(), [](const std::string& argument) {
    const std::string_view name = FlagName(argument);
    return name == "flagfile" || name == "fromenv" || name == "tryfromenv" || name == "undefok";
  });
}

std::set<std::string, std::less<>>& GivenOptions() {
  static std::set<std::string, std::less<>> given;
  return given;
}

}  // namespace

void RecordGivenOptions(const std::vector<std::string>& arguments) {
  for (std::size_t i = 1; i < arguments.size() && arguments[i] != "--"; ++i) {
    std::string name(FlagName(arguments[i]));
    if (name.empty()) continue;
    if (TakesNextArgument(arguments[i])) ++i;
    // --noflag names the boolean --flag.
    if (name.rfind("no", 0) == 0 && absl::FindCommandLineFlag(name) == nullptr) name.erase(0, 2);
    GivenOptions().insert(std::move(name));
  }
}

bool WasGivenOnCommandLine(std::string_view name) { return GivenOptions().count(name) > 0; }

std::vector<std::string> NormalizeFlagNames(int argc, char** argv) {
  std::vector<std::string> arguments;
  bool after_separator = false;
  bool is_value = false;  // the value of the flag before, as in "--input -my-data.csv"
  for (int i = 0; i < argc; ++i) {
    std::string argument = argv[i];
    if (argument == "--") after_separator = true;
    const std::string_view name = FlagName(argument);
    const bool normalize = i > 0 && !after_separator && !is_value && !name.empty();
    is_value = false;
    if (normalize) {
      const std::size_t start = static_cast<std::size_t>(name.data() - argument.data());
      const std::size_t length = name.size();
      std::replace(argument.begin() + start, argument.begin() + start + length, '-', '_');
      // --no-intercept: the negation of a boolean is --nointercept.
      const std::string spelled = argument.substr(start, length);
      if (spelled.rfind("no_", 0) == 0 && absl::FindCommandLineFlag(spelled) == nullptr) {
        const absl::CommandLineFlag* negated = absl::FindCommandLineFlag(spelled.substr(3));
        if (negated != nullptr && negated->IsOfType<bool>()) argument.erase(start + 2, 1);
      }
      is_value = TakesNextArgument(argument);
    }
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

std::optional<std::string> CommandLineError(const std::vector<std::string>& arguments) {
  if (UsesAbseilFlagSources(arguments)) return std::nullopt;
  const std::map<std::string, const absl::CommandLineFlag*> app_flags = AppFlags();
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    if (arguments[i] == "--") break;
    const std::string name(FlagName(arguments[i]));
    if (name.empty() || IsHelpFlag(name) || name == "version") continue;
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    const bool has_value = arguments[i].find('=') != std::string::npos;
    if (flag == nullptr && name.rfind("no", 0) == 0) {
      absl::CommandLineFlag* negated = absl::FindCommandLineFlag(name.substr(2));
      if (negated != nullptr && negated->IsOfType<bool>() && !has_value) continue;
    }
    if (flag != nullptr) {
      if (flag->IsOfType<bool>() && !has_value) continue;
      // "--flag value": the next argument is the value.
      std::string value;
      if (has_value) {
        value = arguments[i].substr(arguments[i].find('=') + 1);
      } else if (i + 1 < arguments.size()) {
        value = arguments[++i];
      } else {
        return "--" + name + " needs a value";
      }
      std::string error;
      if (!flag->ParseFrom(value, &error)) return "--" + name + "=" + value + ": " + error;
      continue;
    }
    std::string closest;
    std::size_t best = name.size() / 2 + 2;  // beyond this a suggestion is noise
    for (const auto& [known, known_flag] : app_flags) {
      const std::size_t distance = EditDistance(name, known);
      if (distance < best) {
        best = distance;
        closest = known;
      }
    }
    std::string message = "unknown flag --" + name;
    if (!closest.empty()) message += "; did you mean --" + closest + "?";
    return message + " (rffstream --help lists the flags)";
  }
  return std::nullopt;
}

bool AsksForHelp(const std::vector<std::string>& arguments) {
  return std::any_of(arguments.begin() + 1, arguments.end(), [](const std::string& argument) {
    return IsHelpFlag(FlagName(argument));
  });
}

bool AsksForVersion(const std::vector<std::string>& arguments) {
  return std::any_of(arguments.begin() + 1, arguments.end(), [](const std::string& argument) {
    return FlagName(argument) == "version";
  });
}

void PrintHelp(std::FILE* out, const char* usage, std::string_view command) {
  if (command.empty()) {
    std::fprintf(out, "rffstream: %s", usage);
  } else {
    std::fprintf(out, "rffstream %.*s: the flags of this command (rffstream --help: every command)\n",
                 static_cast<int>(command.size()), command.data());
  }
  std::fprintf(out, "flags (--name=value; --name value; booleans also --name and --noname):\n");
  std::map<std::string, std::vector<const absl::CommandLineFlag*>> by_topic;
  for (const auto& [name, flag] : AppFlags()) {
    if (command.empty() || CommandReadsFlag(command, *flag)) {
      by_topic[std::string(FlagTopic(*flag))].push_back(flag);
    }
  }
  constexpr std::size_t kColumns = 100;
  for (const auto& [topic, flags] : by_topic) {
    std::fprintf(out, "\n  %s:\n", topic.c_str());
    for (const absl::CommandLineFlag* flag : flags) {
      const std::string default_value = flag->DefaultValue();
      std::fprintf(out, "    --%s (default %s)\n", std::string(flag->Name()).c_str(),
                   default_value.empty() ? "empty" : default_value.c_str());
      PrintWrapped(out, flag->Help(), 8, kColumns);
    }
  }
}

std::string_view CommandOf(const std::vector<std::string>& arguments) {
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    if (IsCommand(arguments[i])) return arguments[i];
  }
  return {};
}

bool IsCommand(std::string_view name) { return FindCommand(name) != nullptr; }

std::string UnknownCommandMessage(std::string_view name) {
  std::string_view closest;
  std::size_t best = name.size() / 2 + 2;  // beyond this a suggestion is noise
  for (const Command& command : Commands()) {
    const std::size_t distance = EditDistance(name, command.name);
    if (distance < best) {
      best = distance;
      closest = command.name;
    }
  }
  std::string message = absl::StrCat("unknown command '", std::string(name), "'");
  if (!closest.empty()) absl::StrAppend(&message, "; did you mean ", std::string(closest), "?");
  return message;
}

void PrintVersion(std::FILE* out) {
#ifdef NDEBUG
  constexpr char kBuild[] = "release build";
#else
  constexpr char kBuild[] = "debug build";
#endif
  std::fprintf(out, "rffstream %s (%s; SIMD kernels on this CPU: %s; checkpoint format %u)\n",
               kVersion, kBuild, absl::StrJoin(SupportedSimdKernels(), ", ").c_str(),
               kCheckpointFormatVersion);
}

}  // namespace rffstream::app
