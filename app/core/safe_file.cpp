// safe_file.cpp — write through a unique temporary, renamed when complete.
#include "app/core/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <mutex>
#include <random>

namespace ts {
namespace {

namespace fs = std::filesystem;

// ---- temporaries the signal handler removes -----------------------------------
// Fixed storage, so that the handler touches nothing but plain memory and
// unlink(2), both async-signal-safe. A slot is free (0), being filled (1) or
// holds a live temporary (2).
constexpr int kSlots = 64;
char g_paths[kSlots][PATH_MAX];
std::atomic<int> g_state[kSlots];
struct sigaction g_old_int, g_old_term;
std::once_flag g_handlers_once;

extern "C" void remove_temporaries_and_die(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_state[i].load(std::memory_order_acquire) == 2) ::unlink(g_paths[i]);
  const struct sigaction& old = sig == SIGINT ? g_old_int : g_old_term;
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) return;
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL) {
    old.sa_handler(sig);  // the program's own handler still runs
    return;
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers() {
  struct sigaction sa {};
  sa.sa_handler = remove_temporaries_and_die;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

int register_temporary(const fs::path& p) {
  std::call_once(g_handlers_once, install_handlers);
  const std::string& s = p.native();
  if (s.size() >= PATH_MAX) return -1;  // still written safely, only not removed on a signal
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_state[i].compare_exchange_strong(expected, 1)) {
      std::memcpy(g_paths[i], s.c_str(), s.size() + 1);
      g_state[i].store(2, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_state[slot].store(0, std::memory_order_release);
}

std::string kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

std::string unique_suffix() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[64];
  std::snprintf(buf, sizeof buf, ".tmp-%ld-%llu-%08llx", static_cast<long>(::getpid()),
                static_cast<unsigned long long>(counter++), static_cast<unsigned long long>(rng() & 0xFFFFFFFFu));
  return buf;
}

}  // namespace

AtomicFile::AtomicFile(const fs::path& target, std::initializer_list<fs::path> inputs) : shown_(target) {
  if (target.empty()) throw SafeFileError("cannot write: no file name given");
  std::error_code ec;
  // A symlink is followed: the file it names is replaced, the link stays.
  target_ = fs::is_symlink(fs::symlink_status(target, ec)) ? fs::weakly_canonical(target, ec) : target;
  if (ec || target_.empty()) target_ = target;
  if (!target_.has_filename()) throw SafeFileError("cannot write " + shown_.string() + ": it names a directory");

  struct stat out {};
  if (::stat(target_.c_str(), &out) == 0) {
    if (!S_ISREG(out.st_mode))
      throw SafeFileError("cannot write " + shown_.string() + ": it is " + kind_of(out.st_mode) +
                          "; tilescope writes only regular files");
    for (const fs::path& in : inputs) {
      struct stat st {};
      if (::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
        throw SafeFileError("cannot write " + shown_.string() + ": it is the input " + in.string() +
                            " (choose another output)");
    }
  } else if (errno != ENOENT) {
    const int err = errno;
    fail("cannot write " + shown_.string(), err);
  }

  const fs::path dir = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  std::string base = ".";  // hidden, and named after the target for whoever finds one
  base += target_.filename().string();
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp_ = dir / (base + unique_suffix());
    fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0 && errno != EEXIST) {
      const int err = errno;
      temp_.clear();
      fail("cannot write " + shown_.string() + " (creating a temporary in " + dir.string() + ")", err);
    }
  }
  if (fd < 0) {
    temp_.clear();
    fail("cannot write " + shown_.string() + ": no unique temporary name", EEXIST);
  }
  slot_ = register_temporary(temp_);
  if (S_ISREG(out.st_mode)) ::fchmod(fd, out.st_mode & 07777);  // keep an existing file's permissions
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    fail("cannot write " + shown_.string(), err);
  }
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  unregister_temporary(slot_);
  slot_ = -1;
}

void AtomicFile::fail(const std::string& what, int err) {
  discard();
  throw SafeFileError(what + ": " + std::strerror(err));
}

void AtomicFile::write(std::string_view bytes) {
  if (!file_) throw SafeFileError("cannot write " + shown_.string() + ": already closed");
  errno = 0;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    const int err = errno ? errno : EIO;
    fail("cannot write " + shown_.string(), err);
  }
}

void AtomicFile::commit() {
  if (!file_) throw SafeFileError("cannot write " + shown_.string() + ": already closed");
  errno = 0;
  if (std::ferror(file_) || std::fflush(file_) != 0) {
    const int err = errno ? errno : EIO;
    fail("cannot write " + shown_.string(), err);
  }
  if (::fsync(::fileno(file_)) != 0) {
    const int err = errno;
    fail("cannot write " + shown_.string() + " (syncing it)", err);
  }
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0) {
    const int err = errno;
    fail("cannot write " + shown_.string() + " (closing it)", err);
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    fail("cannot write " + shown_.string() + " (renaming the temporary over it)", err);
  }
  committed_ = true;
  unregister_temporary(slot_);
  slot_ = -1;
  // The rename is durable once the directory is synced; a file system that
  // cannot sync a directory (EINVAL) has nothing more to offer.
  const fs::path dir = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    const bool synced = ::fsync(dfd) == 0 || errno == EINVAL;
    const int err = errno;
    ::close(dfd);
    if (!synced) throw SafeFileError("wrote " + shown_.string() + " but syncing its directory failed: " + std::strerror(err));
  }
}

void write_file_atomically(const fs::path& target, std::string_view contents, std::initializer_list<fs::path> inputs) {
  AtomicFile f(target, inputs);
  f.write(contents);
  f.commit();
}

std::string try_write_file_atomically(const fs::path& target, std::string_view contents) {
  try {
    write_file_atomically(target, contents);
  } catch (const SafeFileError& e) {
    return e.what();
  }
  return {};
}

int open_temporaries() {
  int n = 0;
  for (int i = 0; i < kSlots; ++i) n += g_state[i].load() == 2;
  return n;
}

}  // namespace ts
