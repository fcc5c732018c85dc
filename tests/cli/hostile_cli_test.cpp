// The command line against hostile files and unsafe outputs: every crafted
// lie gets one clear line and a non-zero exit, a FIFO never hangs a command,
// the trace is never the export's output, and `record` refuses up front what
// the loader would refuse.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>

#include "app/core/trace_file.h"
#include "tests/cli/cli_support.h"
#include "tests/core/crafted_traces.h"

namespace {

using ts::test::expect_one_line_error;
using ts::test::Result;
using ts::test::run;
using ts::test::temp;
namespace fs = std::filesystem;

void write_bytes(const fs::path& p, const std::vector<std::byte>& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

bool has_control_characters(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) < 0x20 && s[i] != '\n') || s[i] == 0x7F) return true;
  return false;
}

TEST(HostileCli, EveryCraftedLieGetsOneLine) {
  const fs::path f = temp("hostile.tstrace");
  for (const auto& c : ts::crafted::hostile_cases()) {
    write_bytes(f, c.bytes);
    for (const char* cmd : {"stats ", "export "}) {
      const Result r = run(std::string(cmd) + f.string() + (cmd[0] == 's' ? " --json" : " --csv"));
      expect_one_line_error(r, "tilescope: ");
      EXPECT_FALSE(has_control_characters(r.err)) << c.name;
      EXPECT_EQ(r.out, "") << c.name;
    }
  }
  fs::remove(f);
}

TEST(HostileCli, ControlCharactersInMessagesAreEscaped) {
  const fs::path f = temp("bad\x1b[2Jname.tstrace");
  const Result r = run("stats '" + f.string() + "' --json");
  expect_one_line_error(r, "\\x1B[2J");
  EXPECT_FALSE(has_control_characters(r.err));
}

TEST(HostileCli, AFifoIsRefusedNotWaitedOn) {
  const fs::path fifo = temp("cli.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_one_line_error(run("stats " + fifo.string() + " --json"), "FIFO");
  const fs::path t = temp("fifo_src.tstrace");
  ASSERT_EQ(run("record --device cpu --size 8 --tile 4 -o " + t.string()).code, 0);
  expect_one_line_error(run("export " + t.string() + " --csv -o " + fifo.string()), "FIFO");
  expect_one_line_error(run("record --device cpu --size 8 --tile 4 -o " + fifo.string()), "FIFO");
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::remove(fifo);
  fs::remove(t);
}

TEST(HostileCli, ExportNeverOverwritesItsInput) {
  const fs::path t = temp("self.tstrace");
  ASSERT_EQ(run("record --device cpu --size 8 --tile 4 -o " + t.string()).code, 0);
  const auto size = fs::file_size(t);
  expect_one_line_error(run("export " + t.string() + " --csv -o " + t.string()), "is the input");
  EXPECT_EQ(fs::file_size(t), size);
  EXPECT_NO_THROW(ts::load_trace(t));
  // A successful export replaces an existing file whole, through a temporary.
  const fs::path csv = temp("self.csv");
  { std::ofstream(csv) << "old"; }
  const Result ok = run("export " + t.string() + " --csv -o " + csv.string());
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_GT(fs::file_size(csv), 100u);
  for (const auto& e : fs::directory_iterator(csv.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(csv.filename().string() + ".tmp"), std::string::npos) << e.path();
  fs::remove(t);
  fs::remove(csv);
}

TEST(HostileCli, RecordRefusesWhatCannotBeReadBack) {
  const std::string out = " -o " + temp("limits.tstrace").string();
  const Result r = run("record --kernel naive --tile 2 --m 140000 --n 1 --k 1 --device cpu" + out);
  expect_one_line_error(r, "65535");
  EXPECT_NE(r.err.find("70000"), std::string::npos) << r.err;
  expect_one_line_error(run("record --m 2000000000 --n 2000000000 --k 2000000000 --device cpu" + out), "recording limit");
  expect_one_line_error(run("record --kernel naive --tile 32 --size 65535 --device cpu" + out), "recording limit");
  EXPECT_FALSE(fs::exists(temp("limits.tstrace")));
}

}  // namespace
