// Every rule of the safe writer: complete files only, the input never
// replaced, no FIFO or device replaced, the real errno on failure, and no
// temporary left behind on failure or on SIGTERM.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/core/safe_file.h"

namespace ts {
namespace {

namespace fs = std::filesystem;

class SafeFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ts_safe_file_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  int entries() const { return static_cast<int>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator())); }
  std::string refusal(const fs::path& target, std::initializer_list<fs::path> inputs = {}) {
    try {
      write_file_atomically(target, "new contents", inputs);
    } catch (const SafeFileError& e) {
      return e.what();
    }
    ADD_FAILURE() << target << " was written";
    return {};
  }

  fs::path dir_;
};

TEST_F(SafeFile, WritesCompleteFilesAndLeavesNoTemporary) {
  const fs::path p = dir_ / "out.csv";
  write_file_atomically(p, "first");
  EXPECT_EQ(read(p), "first");
  write_file_atomically(p, "second, longer");
  EXPECT_EQ(read(p), "second, longer");
  EXPECT_EQ(entries(), 1);
  EXPECT_EQ(open_temporaries(), 0);
}

TEST_F(SafeFile, TemporaryIsUniqueExclusiveAndBesideTheTarget) {
  const fs::path p = dir_ / "t.tstrace";
  AtomicFile a(p), b(p);
  EXPECT_NE(a.temporary(), b.temporary());
  EXPECT_EQ(a.temporary().parent_path(), dir_);
  EXPECT_EQ(open_temporaries(), 2);
  a.write("from a");
  b.write("from b, which is longer");
  a.commit();
  b.commit();
  EXPECT_EQ(read(p), "from b, which is longer");  // one writer's whole file, never a mix
  EXPECT_EQ(entries(), 1);
}

TEST_F(SafeFile, WithoutCommitNothingChanges) {
  const fs::path p = dir_ / "keep";
  write_file_atomically(p, "old");
  {
    AtomicFile f(p);
    f.write("half of a new file");
  }
  EXPECT_EQ(read(p), "old");
  EXPECT_EQ(entries(), 1);
}

TEST_F(SafeFile, RefusesTheInput) {
  const fs::path in = dir_ / "t.tstrace";
  write_file_atomically(in, "the trace");
  EXPECT_NE(refusal(in, {in}).find("is the input"), std::string::npos);
  fs::create_hard_link(in, dir_ / "same");  // the same file under another name
  EXPECT_NE(refusal(dir_ / "same", {in}).find("is the input"), std::string::npos);
  fs::create_symlink(in, dir_ / "link");
  EXPECT_NE(refusal(dir_ / "link", {in}).find("is the input"), std::string::npos);
  EXPECT_EQ(read(in), "the trace");
}

TEST_F(SafeFile, RefusesFifosDevicesAndDirectories) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(refusal(fifo).find("a FIFO"), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_NE(refusal("/dev/null").find("a device"), std::string::npos);
  EXPECT_NE(refusal(dir_).find("directory"), std::string::npos);
  fs::create_symlink(fifo, dir_ / "to_fifo");
  EXPECT_NE(refusal(dir_ / "to_fifo").find("a FIFO"), std::string::npos);
}

TEST_F(SafeFile, FollowsASymlinkAndKeepsIt) {
  const fs::path real = dir_ / "real", link = dir_ / "link";
  write_file_atomically(real, "old");
  fs::create_symlink(real, link);
  write_file_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(real), "new");
}

TEST_F(SafeFile, KeepsTheTargetsPermissions) {
  const fs::path p = dir_ / "script";
  write_file_atomically(p, "old");
  fs::permissions(p, fs::perms::owner_all);
  write_file_atomically(p, "new");
  EXPECT_EQ(fs::status(p).permissions() & fs::perms::all, fs::perms::owner_all);
}

TEST_F(SafeFile, ReportsTheRealError) {
  const std::string why = refusal(dir_ / "no" / "such" / "dir" / "out.json");
  EXPECT_NE(why.find("No such file or directory"), std::string::npos) << why;
  EXPECT_EQ(why.find("Success"), std::string::npos) << why;
}

TEST_F(SafeFile, AFullDiskLeavesTheOldFileAndNoTemporary) {
  // RLIMIT_FSIZE makes writes past 4 KiB fail with EFBIG, as a full disk would.
  const fs::path p = dir_ / "big.csv";
  write_file_atomically(p, "old");
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto previous = ::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string why;
  try {
    AtomicFile f(p);
    f.write(std::string(1 << 20, 'x'));
    f.commit();
  } catch (const SafeFileError& e) {
    why = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, previous);
  EXPECT_NE(why.find("File too large"), std::string::npos) << why;
  EXPECT_EQ(read(p), "old");
  EXPECT_EQ(entries(), 1);
  EXPECT_EQ(open_temporaries(), 0);
}

TEST_F(SafeFile, SigtermRemovesTheTemporary) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    AtomicFile f(dir_ / "interrupted.tstrace");
    f.write(std::string(100000, 'x'));
    std::fflush(f.stream());
    const std::string tmp = f.temporary().string();
    (void)!::write(fds[1], tmp.c_str(), tmp.size());
    ::close(fds[1]);
    ::raise(SIGTERM);
    ::_exit(3);  // not reached: SIGTERM ends the process
  }
  ::close(fds[1]);
  char buf[4096] = {};
  const ssize_t n = ::read(fds[0], buf, sizeof buf - 1);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_GT(n, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(fs::exists(buf)) << buf;
  EXPECT_EQ(entries(), 0);
}

}  // namespace
}  // namespace ts
