#include "commands/serve_command.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/command_status.h"
#include "server/line_server.h"
#include "server/listen_address.h"
#include "rffstream/atomic_file.h"
#include "rffstream/stream/model_loading.h"
#include "server/serve_session.h"
#include "front/stream_options.h"

namespace rffstream::app {
namespace {

// --load's model into the session; nothing without --load.
template <class Real>
absl::Status LoadInto(ServeSession<Real>& session, const StreamOptions& options) {
  const std::string& load_path = options.checkpoint.load;
  if (load_path.empty()) return absl::OkStatus();
  absl::StatusOr<BasicCheckpoint<Real>> loaded =
      LoadModel<Real>(load_path, options.model, options.input_format);
  return loaded.ok() ? session.Resume(*std::move(loaded), load_path) : loaded.status();
}

// The listening socket of --listen, described for the log, and a Unix
// socket's file, which serve removes when it stops.
struct Listener {
  int fd = -1;
  std::optional<UnixSocketFile> socket_file;
  std::string bound;
};

// InvalidArgument: --listen is not an address; any other code: the socket
// could not be opened.
absl::StatusOr<Listener> OpenListener(const std::string& listen) {
  absl::StatusOr<ListenAddress> address = ParseListenAddress(listen);
  if (!address.ok()) return address.status();
  absl::StatusOr<int> fd = OpenListeningSocket(*address);
  if (!fd.ok()) return fd.status();
  Listener listener;
  listener.fd = *fd;
  if (address->is_unix) {
    absl::StatusOr<UnixSocketFile> identified = IdentifyUnixSocketFile(address->path);
    if (!identified.ok()) {
      ::close(*fd);
      return identified.status();
    }
    listener.socket_file = *std::move(identified);
  }
  listener.bound = DescribeBoundAddress(*fd, *address);
  return listener;
}

// The bound port for clients to read, written atomically: a reader never
// sees half a number.
absl::Status WritePortFile(const std::string& path, int listen_fd) {
  const std::string port = absl::StrCat(BoundPort(listen_fd), "\n");
  return WriteFileAtomically(
      path, {reinterpret_cast<const unsigned char*>(port.data()), port.size()}, "--port_file");
}

// Answers the clients' lines on `listen_fd` until a stop signal; SIGHUP
// saves a checkpoint.
template <class Real>
absl::Status AnswerUntilStopped(ServeSession<Real>& session, const StreamOptions& options,
                                int listen_fd, int signal_fd) {
  LineServerOptions server_options;
  server_options.max_connections = options.server.max_connections;
  server_options.max_line_bytes = static_cast<std::size_t>(options.input_format.max_line_bytes);
  server_options.idle_timeout = absl::Seconds(options.server.idle_timeout);
  LineServer server(listen_fd, server_options,
                    [&session](std::span<const std::string_view> lines, std::string& output,
                               std::size_t output_budget) {
                      return session.HandleLines(lines, output, output_budget);
                    },
                    stderr);
  session.set_server(&server);
  absl::Status status = server.Run(signal_fd, [&session] { session.SaveOnHangup(); });
  session.set_server(nullptr);  // the server ends here; !stats no longer asks it
  return status;
}

template <class Real>
absl::Status Serve(const StreamOptions& options, int signal_fd) {
  ServeSession<Real> session(options, stderr);
  if (absl::Status loaded = LoadInto(session, options); !loaded.ok()) return loaded;
  absl::StatusOr<Listener> listener = OpenListener(options.server.listen);
  if (!listener.ok()) return listener.status();
  const int listen_fd = listener->fd;
  const std::optional<UnixSocketFile>& socket_file = listener->socket_file;
  std::fprintf(stderr, "rffstream serve: listening on %s\n", listener->bound.c_str());
  if (const std::string& port_file = options.server.port_file; !port_file.empty()) {
    if (absl::Status written = WritePortFile(port_file, listen_fd); !written.ok()) {
      if (socket_file.has_value()) RemoveUnixSocketFile(*socket_file);
      ::close(listen_fd);
      return AsIoFailure(written);
    }
  }
  absl::Status status = AnswerUntilStopped(session, options, listen_fd, signal_fd);
  if (socket_file.has_value()) RemoveUnixSocketFile(*socket_file);
  if (!status.ok()) return AsIoFailure(status);
  if (!options.checkpoint.save.empty()) {
    if (absl::Status saved = session.Stop(); !saved.ok()) {
      return AsIoFailure(absl::Status(saved.code(), absl::StrCat("checkpoint not saved: ",
                                                                 std::string(saved.message()))));
    }
    std::fprintf(stderr, "rffstream serve: saved %s\n", options.checkpoint.save.c_str());
  }
  std::fprintf(stderr, "rffstream serve: stopped\n");
  return absl::OkStatus();
}

// Each connection holds a descriptor: raises the soft limit on open files to
// the hard one (the common soft limit, 1024, is what --max_connections
// defaults to), and when even that is short of --max_connections plus the
// server's own descriptors, lowers a default --max_connections to fit (a
// value the user gave is kept: accept then pauses when descriptors run out).
// A note for the log when the limit decided anything.
std::optional<std::string> FitDescriptorLimit(ServerOptions& options) {
  constexpr rlim_t kReserved = 16;  // listening socket, epoll, signalfd, log, checkpoint, ...
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::nullopt;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  const auto wanted = static_cast<rlim_t>(options.max_connections) + kReserved;
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= wanted) return std::nullopt;
  const int fitting = limit.rlim_cur > kReserved ? static_cast<int>(limit.rlim_cur - kReserved) : 1;
  if (options.max_connections_given) {
    return absl::StrCat("only ", limit.rlim_cur, " open files allowed (ulimit -n): at most about ",
                        fitting, " of --max_connections=", options.max_connections,
                        " can be open at once");
  }
  options.max_connections = fitting;
  return absl::StrCat("--max_connections=", fitting, " to fit the limit of ", limit.rlim_cur,
                      " open files (ulimit -n)");
}

}  // namespace

absl::Status RunServeCommand(StreamOptions options) {
  if (absl::Status status = ValidateStreamOptions(options, /*can_infer_dimension=*/false);
      !status.ok()) {
    return AsUsageError(status);
  }
  const ServerOptions& server = options.server;
  if (server.max_connections < 1 || server.idle_timeout < 0 || server.fields < 0) {
    return absl::InvalidArgumentError(
        "--max_connections must be positive; --idle_timeout, --fields non-negative");
  }
  if (std::optional<std::string> note = FitDescriptorLimit(options.server); note.has_value()) {
    std::fprintf(stderr, "rffstream serve: %s\n", note->c_str());
  }
  // SIGINT, SIGTERM and SIGHUP arrive as readable events on a descriptor, so the
  // event loop shuts down in an orderly way between requests.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGHUP);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  const int signal_fd = ::signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd < 0) {
    return AsIoFailure(absl::InternalError(absl::StrCat("signalfd: ", std::strerror(errno))));
  }
  absl::StatusOr<int> real_bytes = ModelBytesPerNumber(options.model, options.checkpoint.load);
  absl::Status status = !real_bytes.ok()    ? real_bytes.status()
                        : *real_bytes == 4 ? Serve<float>(options, signal_fd)
                                           : Serve<double>(options, signal_fd);
  ::close(signal_fd);
  return status;
}

}  // namespace rffstream::app
