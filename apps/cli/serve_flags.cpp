// The flags of serve alone.
#include <string>

#include "cli/flags.h"
#include "core/options.h"

ABSL_FLAG(std::string, listen, "127.0.0.1:7878",
          "serve: HOST:PORT (IPv4 or [IPv6]; port 0 = any free port) or unix:PATH. Loopback by "
          "default: listening on all interfaces needs an explicit 0.0.0.0 or [::]");
ABSL_FLAG(std::string, port_file, "", "serve: write the bound port to this file once listening");
ABSL_FLAG(int, max_connections, 1024, "serve: connections beyond this get an error line");
ABSL_FLAG(double, idle_timeout, rffstream::app::kDefaultIdleTimeoutSeconds,
          "serve: close a connection that neither completed a request line nor read any of its "
          "answers for this many seconds (a silent, trickling or non-reading client); 0 = never");
ABSL_FLAG(bool, follow, false,
          "serve: a replica: answer predictions only, with the model at --load, and load it again "
          "whenever the file is replaced (a learner's --save or merge publishes it)");
ABSL_FLAG(int, fields, 0,
          "serve: fields per data line (inputs and the target); 0 = from the first data line");

namespace rffstream::app {

ServerOptions ServerOptionsFromFlags() {
  ServerOptions options;
  options.listen = absl::GetFlag(FLAGS_listen);
  options.port_file = absl::GetFlag(FLAGS_port_file);
  options.max_connections = absl::GetFlag(FLAGS_max_connections);
  options.max_connections_given = IsSetByUser(FLAGS_max_connections);
  options.idle_timeout = absl::GetFlag(FLAGS_idle_timeout);
  options.fields = absl::GetFlag(FLAGS_fields);
  options.follow = absl::GetFlag(FLAGS_follow);
  return options;
}

}  // namespace rffstream::app
