#include "cli/command_shorthands.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"

namespace rffstream::app {
namespace {

constexpr std::array<std::pair<std::string_view, const char*>, 4> kShortOptions = {{
    {"-d", "input"}, {"-f", "save"}, {"-i", "load"}, {"-p", "predictions"}}};

// The long flag a short option stands for, or null.
const char* LongNameOf(std::string_view option) {
  for (const auto& [short_option, long_name] : kShortOptions) {
    if (option == short_option) return long_name;
  }
  return nullptr;
}

// "-d FILE" or "-d=FILE" (`option` "-d" at `arguments[i]`) as the long
// flag `name` spells it: "--input=FILE". `i` moves past a value taken from
// the next argument.
absl::StatusOr<std::string> LongForm(const char* name, const std::string& option,
                                     const std::vector<std::string>& arguments, std::size_t& i) {
  const std::string& argument = arguments[i];
  std::string value;
  if (option.size() < argument.size()) {
    value = argument.substr(option.size() + 1);
  } else if (i + 1 < arguments.size()) {
    value = arguments[++i];
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(option, " needs a value (", option, " FILE is --", name, "=FILE)"));
  }
  return absl::StrCat("--", name, "=", value);
}

// True for "--name value" or "-name value" (Abseil takes both): a known
// flag that is not boolean, with no '='.
bool TakesNextArgument(const std::string& argument) {
  if (argument.size() < 2 || argument[0] != '-' || argument.find('=') != std::string::npos) {
    return false;
  }
  const absl::CommandLineFlag* flag =
      absl::FindCommandLineFlag(argument.substr(argument[1] == '-' ? 2 : 1));
  return flag != nullptr && !flag->IsOfType<bool>();
}

// -t: the command (at `command` in `arguments`) predicts instead of learning.
absl::Status PredictInstead(std::vector<std::string>& arguments,
                            std::optional<std::size_t> command) {
  if (!command.has_value() || (arguments[*command] != "learn" && arguments[*command] != "predict")) {
    return absl::InvalidArgumentError("-t (test only: predict, do not learn) is for learn");
  }
  arguments[*command] = "predict";
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandShorthands(std::vector<std::string> arguments) {
  std::vector<std::string> expanded;
  std::optional<std::size_t> command;  // its index in `expanded`
  bool test_only = false;
  bool positional_input = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    std::string& argument = arguments[i];
    if (i == 0 || argument == "--") {
      expanded.insert(expanded.end(), std::make_move_iterator(arguments.begin() + i),
                      std::make_move_iterator(i == 0 ? arguments.begin() + 1 : arguments.end()));
      if (i > 0) break;
      continue;
    }
    const std::string option = argument.substr(0, argument.find('='));
    if (const char* name = LongNameOf(option); name != nullptr) {
      absl::StatusOr<std::string> long_form = LongForm(name, option, arguments, i);
      if (!long_form.ok()) return long_form.status();
      expanded.push_back(*std::move(long_form));
      continue;
    }
    if (argument == "-t") {
      test_only = true;
      continue;
    }
    const bool positional = argument == "-" || argument.empty() || argument[0] != '-';
    if (!positional) {
      expanded.push_back(std::move(argument));
      if (TakesNextArgument(expanded.back()) && i + 1 < arguments.size()) {
        expanded.push_back(std::move(arguments[++i]));
      }
      continue;
    }
    if (!command.has_value()) {
      command = expanded.size();
      expanded.push_back(std::move(argument));
      continue;
    }
    const std::string& name = expanded[*command];
    if (name != "learn" && name != "predict") {
      expanded.push_back(std::move(argument));  // merge's inputs, or an error of the command's
      continue;
    }
    if (positional_input) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rffstream ", name, " reads one input: '", argument, "' is a second (give one file)"));
    }
    positional_input = true;
    expanded.push_back(absl::StrCat("--input=", argument));
  }
  if (positional_input) {
    // `learn in.csv --input=other.csv` (or -d): two inputs, one would be ignored.
    const auto names_input = [](std::string_view argument) {
      if (argument.rfind("--", 0) == 0) argument.remove_prefix(1);
      return argument == "-input" || argument.rfind("-input=", 0) == 0;
    };
    if (std::count_if(expanded.begin(), expanded.end(), names_input) > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rffstream ", expanded[*command], " reads one input: a file argument and --input (or -d) "
          "name two (give one)"));
    }
  }
  if (test_only) {
    if (absl::Status predicts = PredictInstead(expanded, command); !predicts.ok()) return predicts;
  }
  return expanded;
}

}  // namespace rffstream::app
