// serve's --listen: parsing, and real sockets bound on loopback and a Unix path.
#include "server/listen_address.h"

#include <unistd.h>

#include <string>

#include "catch2/catch.hpp"
#include "tests/temp_dir.h"

namespace rffstream::app {
namespace {

TEST_CASE("Listen addresses: IPv4, IPv6 in brackets, Unix paths", "[listen_address]") {
  absl::StatusOr<ListenAddress> v4 = ParseListenAddress("127.0.0.1:7878");
  REQUIRE(v4.ok());
  CHECK_FALSE(v4->is_unix);
  CHECK(v4->host == "127.0.0.1");
  CHECK(v4->port == 7878);
  absl::StatusOr<ListenAddress> v6 = ParseListenAddress("[::1]:0");
  REQUIRE(v6.ok());
  CHECK(v6->host == "::1");
  CHECK(v6->port == 0);
  absl::StatusOr<ListenAddress> unix_socket = ParseListenAddress("unix:/tmp/rff.sock");
  REQUIRE(unix_socket.ok());
  CHECK(unix_socket->is_unix);
  CHECK(unix_socket->path == "/tmp/rff.sock");
}

TEST_CASE("Bad listen addresses say what is expected", "[listen_address]") {
  CHECK(ParseListenAddress("localhost").status().message() ==
        "--listen=localhost: expected HOST:PORT, [IPV6]:PORT or unix:PATH");
  CHECK(ParseListenAddress("localhost:80").status().message() ==
        "--listen=localhost:80: 'localhost' is not a numeric IP address");
  CHECK(ParseListenAddress("127.0.0.1:65536").status().message() ==
        "--listen=127.0.0.1:65536: the port must be 0..65535");
  CHECK(ParseListenAddress("unix:").status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(ParseListenAddress("unix:" + std::string(200, 'a')).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

TEST_CASE("Sockets bind on loopback with any free port, and on a Unix path", "[listen_address]") {
  absl::StatusOr<int> tcp = OpenListeningSocket(*ParseListenAddress("127.0.0.1:0"));
  REQUIRE(tcp.ok());
  const int port = BoundPort(*tcp);
  CHECK(port > 0);
  CHECK(DescribeBoundAddress(*tcp, *ParseListenAddress("127.0.0.1:0")) ==
        "127.0.0.1:" + std::to_string(port));
  ::close(*tcp);
  testing::TempDir dir;
  const std::string path = dir.File("serve.sock");
  const ListenAddress unix_address = *ParseListenAddress("unix:" + path);
  absl::StatusOr<int> unix_fd = OpenListeningSocket(unix_address);
  REQUIRE(unix_fd.ok());
  CHECK(BoundPort(*unix_fd) == 0);
  CHECK(DescribeBoundAddress(*unix_fd, unix_address) == "unix:" + path);
  ::close(*unix_fd);
  // A socket file left by an earlier run is replaced.
  absl::StatusOr<int> again = OpenListeningSocket(unix_address);
  REQUIRE(again.ok());
  ::close(*again);
}

}  // namespace
}  // namespace rffstream::app
