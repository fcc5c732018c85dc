// compile_cache.cpp — the cache directory and the content hash of compiled user kernels.
#include "kernels/user/compile_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ts {
namespace {

namespace fs = std::filesystem;

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hex(std::uint64_t x) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, x >>= 4) s[i] = digits[x & 15];
  return s;
}

}  // namespace

fs::path kernel_cache_dir() {
  if (const char* d = std::getenv("TILESCOPE_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "tilescope";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "tilescope";
  return fs::temp_directory_path() / ("tilescope-cache-" + std::to_string(getuid()));
}

std::string content_hash(const std::vector<std::string_view>& parts) {
  // Two FNV-1a streams with different offsets; each part is followed by its length, so that
  // moving text from one part to the next changes the hash.
  std::uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (std::string_view p : parts) {
    const std::string len = "\x1f" + std::to_string(p.size()) + "\x1e";
    a = fnv1a(fnv1a(a, p), len);
    b = fnv1a(fnv1a(b, len), p);
  }
  return hex(a) + hex(b);
}

std::string kernel_api_hash(const std::vector<fs::path>& include_dirs) {
  // Every header the wrapper can reach: tilescope/, kernels/ (not its subfolders but api/, emu/,
  // cuda/'s mode headers) and trace/ (event.h, dim3.h, trace.h).
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::path& root : include_dirs)
    for (const char* sub : {"tilescope", "kernels", "kernels/api", "kernels/emu", "kernels/cuda", "trace"}) {
      for (fs::directory_iterator it(root / sub, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        const std::string ext = p.extension().string();
        if (it->is_regular_file(ec) && (ext == ".h" || ext == ".cuh")) files.push_back(p);
      }
      ec.clear();
    }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    texts.push_back(f.filename().string() + "\n" + s.str());
  }
  return content_hash(std::vector<std::string_view>(texts.begin(), texts.end()));
}

void publish_object(const fs::path& tmp, const fs::path& final_path) {
  std::error_code ec;
  fs::rename(tmp, final_path, ec);  // atomic on one file system; a racing twin wrote the same bytes
  if (ec) fs::remove(tmp, ec);
}

}  // namespace ts
