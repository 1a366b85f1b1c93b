#include "core/input_head.h"

#include <sys/stat.h>
#include <unistd.h>


namespace rffstream::app {
std::string ReadInputHead(int fd) {
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) return {};
  const off_t position = ::lseek(fd, 0, SEEK_CUR);
  if (position < 0) return {};
  std::string head(kInputHeadBytes, '\0');
  std::size_t filled = 0;
  while (filled < head.size()) {
    const ssize_t got = ::pread(fd, head.data() + filled, head.size() - filled,
                                position + static_cast<off_t>(filled));
    if (got <= 0) break;
    filled += static_cast<std::size_t>(got);
  }
  head.resize(filled);
  return head;
}

}  // namespace rffstream::app
