#include "cli/flag_readers.h"

#include <algorithm>
#include <span>
#include <vector>

#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "cli/command_line.h"
#include "cli/command_table.h"

namespace rffstream::app {
namespace {

using Commands = std::vector<std::string_view>;

// A topic per source file of flags: its heading and the commands that read
// its flags (empty: every command).
struct Topic {
  std::string_view file_stem;
  std::string_view heading;
  Commands commands;
};

const std::vector<Topic>& Topics() {
  static const std::vector<Topic> topics = {
      {"model_flags", "model (learn, serve; checked against --load)", {"learn", "predict", "serve"}},
      {"input_flags", "input lines (learn, predict, serve)", {"learn", "predict", "serve"}},
      {"stream_flags", "learn and predict", {"learn", "predict", "serve"}},
      {"serve_flags", "serve", {"serve"}},
      {"tool_flags", "export, generate, merge", {"export", "generate", "merge"}},
  };
  return topics;
}

// Flags that fewer (or more) commands read than their topic's.
struct Readers {
  std::string_view flag;
  Commands commands;
};

const std::vector<Readers>& Exceptions() {
  static const std::vector<Readers> exceptions = {
      {"format", {"learn", "predict", "serve", "export"}},  // export: --format=json
      {"load", {"learn", "predict", "serve", "export"}},
      {"save", {"learn", "serve", "merge"}},  // predict learns nothing to save
      {"save_every", {"learn"}},
      {"save_interval", {"learn"}},
      {"input", {"learn", "predict"}},  // serve reads its clients
      {"header", {"learn", "predict"}},  // serve's clients send no header
      {"predictions", {"learn", "predict"}},
      {"metrics_out", {"learn", "predict"}},
      {"quiet", {"learn", "predict"}},
      {"strict", {"learn", "predict"}},
      {"progress_every", {"learn", "predict"}},
      {"max_error_messages", {"learn", "predict"}},
      {"tune_report", {"learn", "serve"}},  // predict tunes nothing
      {"block", {"learn", "serve"}},        // predict answers a line at a time
      {"sync_every", {"learn"}},            // mpirun
      {"rank_model", {"learn"}},
      {"covariance", {"export"}},
      {"series", {"generate"}},
      {"samples", {"generate"}},
      {"embedding", {"generate"}},
      {"base", {"merge"}},
  };
  return exceptions;
}

const Topic* TopicOf(const absl::CommandLineFlag& flag) {
  const std::string file = flag.Filename();
  for (const Topic& topic : Topics()) {
    if (file.find(topic.file_stem) != std::string::npos) return &topic;
  }
  return nullptr;
}

// The commands that read the flag; empty: every command.
std::span<const std::string_view> ReadersOf(const absl::CommandLineFlag& flag) {
  const absl::string_view name = flag.Name();  // not std::string_view in Debian's Abseil
  for (const Readers& readers : Exceptions()) {
    if (readers.flag == std::string_view(name.data(), name.size())) return readers.commands;
  }
  const Topic* topic = TopicOf(flag);
  return topic == nullptr ? std::span<const std::string_view>() : topic->commands;
}

}  // namespace

std::string_view FlagTopic(const absl::CommandLineFlag& flag) {
  const Topic* topic = TopicOf(flag);
  return topic == nullptr ? "every command" : topic->heading;
}

bool CommandReadsFlag(std::string_view command, const absl::CommandLineFlag& flag) {
  const std::span<const std::string_view> readers = ReadersOf(flag);
  return readers.empty() || std::find(readers.begin(), readers.end(), command) != readers.end();
}

std::optional<std::string> FlagNotReadBy(std::string_view command) {
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (flag->Filename().find("apps/") == std::string::npos) continue;  // Abseil's own
    const std::string spelled(name.data(), name.size());
    if (!WasGivenOnCommandLine(spelled) || CommandReadsFlag(command, *flag)) continue;
    const std::span<const std::string_view> readers = ReadersOf(*flag);
    std::string names;
    for (std::string_view reader : readers) {
      names += (names.empty() ? "" : ", ") + std::string(reader);
    }
    return absl::StrCat("--", spelled, ": ", std::string(command), " does not read this flag (",
                        names, readers.size() == 1 ? " does)" : " do)");
  }
  return std::nullopt;
}

}  // namespace rffstream::app
