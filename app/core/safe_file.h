// safe_file.h — the one way tilescope writes a file (trace, CSV, JSON, PNG,
// bench results, timelines): never a partial file under the final name, never
// the input overwritten, never a FIFO or a device replaced.
//
//   1. the target is checked: a directory, FIFO, device or socket is refused,
//      and so is the file being read (same device and inode as an input);
//      a symlink is followed, so the file it names is replaced and the link stays;
//   2. a uniquely named temporary is created exclusively (O_EXCL) in the
//      target's directory, so the rename below never crosses file systems and
//      two writers never share one;
//   3. the contents are written and fsync'd, the temporary is renamed over the
//      target, and the directory is fsync'd so the rename itself survives a crash;
//   4. on any failure the temporary is removed and the error says what failed
//      with the real errno; on SIGINT or SIGTERM a handler unlinks every
//      temporary still open before the process dies.
#pragma once

#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ts {

class SafeFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class AtomicFile {
 public:
  // Checks the target and creates the temporary; `inputs` are the files this
  // write reads from, which it must not replace. Throws SafeFileError.
  explicit AtomicFile(const std::filesystem::path& target, std::initializer_list<std::filesystem::path> inputs = {});
  ~AtomicFile();  // removes the temporary unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The temporary, for code that writes with stdio. Leave closing to commit().
  std::FILE* stream() { return file_; }
  void write(std::string_view bytes);
  // Flushes, syncs, renames over the target, syncs the directory. Throws
  // SafeFileError (and removes the temporary) when any of it fails.
  void commit();

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporary() const { return temp_; }

 private:
  [[noreturn]] void fail(const std::string& what, int err);
  void discard();

  std::filesystem::path shown_;   // the path as given, for messages
  std::filesystem::path target_;  // symlinks resolved
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;  // in the signal handler's list
  bool committed_ = false;
};

// The whole file in one call.
void write_file_atomically(const std::filesystem::path& target, std::string_view contents,
                           std::initializer_list<std::filesystem::path> inputs = {});

// The same, for programs that report rather than throw: empty on success,
// else the message (e.g. for a benchmark's results file).
std::string try_write_file_atomically(const std::filesystem::path& target, std::string_view contents);

// Temporaries still registered with the signal handler (for tests).
int open_temporaries();

}  // namespace ts
