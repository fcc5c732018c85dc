// The CSV export is enough to check a launch without tilescope: each ladder
// rung (and the textbook tiled kernel) is recorded on the emulator through the
// real binary, exported with `export --csv`, and from the CSV text alone
// (columns found by their header names) A and B are rebuilt from the global
// loads, C = A x B is recomputed in double and held to the stores of C, and
// the memory counters of `tilescope stats --json` are recounted: requests per
// array and op, the sectors and lines of global requests, the wavefronts and
// bank conflicts of shared ones, by the rule docs/memory-analysis.md gives.
// Nothing here includes tilescope's analysis; only the binary is run.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

namespace {

using ts::test::Result;
using ts::test::run;
using ts::test::temp;
namespace fs = std::filesystem;

constexpr const char* kArrays[] = {"A", "B", "C", "As", "Bs"};
constexpr int kA = 0, kB = 1, kC = 2;

struct Row {
  std::uint32_t block_x = 0, block_y = 0, thread_x = 0, thread_y = 0, warp = 0;
  std::uint64_t seq = 0, access = 0;
  std::uint32_t epoch = 0, row = 0, col = 0, width = 0;
  std::uint64_t addr = 0;
  float value = 0;
  int array = -1;
  bool store = false, shared = false, padding = false, async = false;
  char fragment = 0;  // 'a' or 'b', 0 for an ordinary event
  int slot = -1;      // the fragment register: a0..a3, b0, b1
  bool starts_access() const { return access == seq; }
};

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    const std::size_t comma = line.find(',', at);
    out.push_back(line.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

std::uint64_t number(std::string_view s) { return std::strtoull(std::string(s).c_str(), nullptr, 10); }

// The CSV's rows, each field taken from the column its header names.
std::vector<Row> parse_csv(const std::string& text) {
  std::size_t end = text.find('\n');
  const auto header = split(std::string_view(text).substr(0, end));
  std::map<std::string, std::size_t, std::less<>> column;
  for (std::size_t i = 0; i < header.size(); ++i) column[std::string(header[i])] = i;
  const auto at = [&](const char* name) {
    const auto it = column.find(name);
    if (it == column.end()) throw std::runtime_error(std::string("no column ") + name);
    return it->second;
  };
  const std::size_t bx = at("block_x"), by = at("block_y"), tx = at("thread_x"), ty = at("thread_y"),
                    warp = at("warp"), seq = at("seq"), epoch = at("epoch"), op = at("op"), space = at("space"),
                    array = at("array"), row = at("row"), col = at("col"), addr = at("addr"), value = at("value"),
                    padding = at("padding"), width = at("width"), access = at("access"), async = at("async"),
                    fragment = at("fragment");
  std::vector<Row> rows;
  while (end + 1 < text.size()) {
    const std::size_t next = text.find('\n', end + 1);
    const auto f = split(std::string_view(text).substr(end + 1, next - end - 1));
    end = next;
    if (f.size() != header.size()) throw std::runtime_error("a row with " + std::to_string(f.size()) + " fields");
    Row r;
    r.block_x = number(f[bx]), r.block_y = number(f[by]), r.thread_x = number(f[tx]), r.thread_y = number(f[ty]);
    r.warp = number(f[warp]), r.seq = number(f[seq]), r.access = number(f[access]), r.epoch = number(f[epoch]);
    r.row = number(f[row]), r.col = number(f[col]), r.width = number(f[width]), r.addr = number(f[addr]);
    r.value = std::strtof(std::string(f[value]).c_str(), nullptr);
    for (int a = 0; a < 5; ++a)
      if (f[array] == kArrays[a]) r.array = a;
    r.store = f[op] == "store", r.shared = f[space] == "shared";
    r.padding = f[padding] == "1", r.async = f[async] == "1";
    if (!f[fragment].empty()) r.fragment = f[fragment][0], r.slot = static_cast<int>(number(f[fragment].substr(1)));
    rows.push_back(r);
  }
  return rows;
}

// FP32 -> TF32 as the tf32-tensor-core rung rounds its inputs (to nearest,
// ties away from zero, on the bits).
double tf32(float f) {
  return std::bit_cast<float>((std::bit_cast<std::uint32_t>(f) + 0x1000u) & 0xFFFFE000u);
}

struct Totals {
  std::uint64_t requests = 0, accesses = 0, sectors = 0, lines = 0, wavefronts = 0, bank_conflicts = 0;
};

// One warp's lanes: each lane's rows in program order (indices into the rows).
using Lanes = std::vector<std::vector<std::size_t>>;

class Recount {
 public:
  explicit Recount(const std::vector<Row>& rows) : rows_(rows) {}
  std::map<std::pair<int, bool>, Totals> by_array_op;  // (array, store)
  std::uint64_t realigned_lanes = 0;
  std::uint64_t fragment_requests = 0;  // shared requests of mma fragments, their layout checked

  void warp(const Lanes& lanes) {
    std::set<std::uint32_t> epochs;
    for (const auto& lane : lanes)
      for (std::size_t i : lane) epochs.insert(rows_[i].epoch);
    for (std::uint32_t e : epochs) epoch(lanes, e);
  }

 private:
  // Within one barrier epoch, the n-th access a lane makes of one kind (array,
  // op, async, width) is that lane's part of the warp's n-th instruction of
  // that kind; an access is the row whose access id is its own seq.
  void epoch(const Lanes& lanes, std::uint32_t e) {
    std::map<std::tuple<int, bool, bool, std::uint32_t>, std::vector<std::vector<std::size_t>>> kinds;
    for (std::size_t l = 0; l < lanes.size(); ++l)
      for (std::size_t i : lanes[l]) {
        const Row& r = rows_[i];
        if (r.epoch != e || !r.starts_access()) continue;
        auto& per_lane = kinds[{r.array, r.store, r.async, r.width}];
        per_lane.resize(lanes.size());
        per_lane[l].push_back(i);
      }
    for (auto& [kind, per_lane] : kinds) {
      const auto table = instructions(per_lane);
      for (const auto& lanes_rows : table) request(lanes_rows);
    }
  }

  // Rows x lanes (the row index, or -1 where the lane made no access). A lane
  // that made fewer accesses than the fullest lane goes to the instructions
  // at which its addresses keep one constant distance from that lane's (the
  // first start that works), else to the first ones.
  std::vector<std::vector<long>> instructions(const std::vector<std::vector<std::size_t>>& per_lane) {
    std::size_t most = 0, full = 0;
    for (std::size_t l = 0; l < per_lane.size(); ++l)
      if (per_lane[l].size() > most) most = per_lane[l].size(), full = l;
    std::vector<std::vector<long>> table(most, std::vector<long>(per_lane.size(), -1));
    const auto addr = [&](std::size_t i) { return static_cast<std::int64_t>(rows_[i].addr); };
    for (std::size_t l = 0; l < per_lane.size(); ++l) {
      const auto& mine = per_lane[l];
      std::vector<std::size_t> at(mine.size());
      std::iota(at.begin(), at.end(), std::size_t{0});
      if (!mine.empty() && mine.size() < most) {
        for (std::size_t start = 0; start + mine.size() <= most; ++start) {
          const std::int64_t distance = addr(mine[0]) - addr(per_lane[full][start]);
          std::vector<std::size_t> found{start};
          for (std::size_t r = start + 1; r < most && found.size() < mine.size(); ++r)
            if (addr(mine[found.size()]) - addr(per_lane[full][r]) == distance) found.push_back(r);
          if (found.size() == mine.size()) {
            realigned_lanes += found != at;
            at = found;
            break;
          }
        }
      }
      for (std::size_t j = 0; j < mine.size(); ++j) table[at[j]][l] = static_cast<long>(mine[j]);
    }
    return table;
  }

  void request(const std::vector<long>& lane_rows) {
    std::vector<std::uint32_t> lanes;
    std::vector<std::uint64_t> addrs;
    for (std::size_t l = 0; l < lane_rows.size(); ++l)
      if (lane_rows[l] >= 0) lanes.push_back(static_cast<std::uint32_t>(l)), addrs.push_back(rows_[lane_rows[l]].addr);
    if (lanes.empty()) return;
    const Row& first = rows_[lane_rows[lanes[0]]];
    Totals& t = by_array_op[{first.array, first.store}];
    ++t.requests;
    t.accesses += lanes.size();
    if (!first.shared) {
      std::set<std::uint64_t> sectors, lines;
      for (std::uint64_t a : addrs)
        for (std::uint64_t b = a; b < a + first.width; b += 4) sectors.insert(b / 32), lines.insert(b / 128);
      t.sectors += sectors.size();
      t.lines += lines.size();
      copy_lines(lane_rows, lanes, first);
      return;
    }
    if (first.fragment == 'a') addrs = ldmatrix_rows(lane_rows, addrs);
    if (first.fragment) check_fragment_layout(lane_rows, lanes);
    // Phases of 128 bytes by lane number: the whole warp for 4-byte accesses,
    // half-warps for 8, quarter-warps for 16; but a load's phases 2j and
    // 2j + 1 are one where their lanes pair up with one address (each lane and
    // lane ^ 1 both active and equal, or each and lane ^ 2) and their words
    // together fall in distinct banks. Each phase takes its worst bank's
    // count of distinct words.
    const std::uint32_t phase_lanes = first.width == 4 ? 32 : 128 / first.width;
    std::map<std::uint32_t, std::uint64_t> addr_of;
    for (std::size_t i = 0; i < lanes.size(); ++i) addr_of[lanes[i]] = addrs[i];
    std::map<std::uint32_t, std::set<std::uint64_t>> phase_words;
    for (std::size_t i = 0; i < lanes.size(); ++i)
      for (std::uint64_t b = addrs[i]; b < addrs[i] + first.width; b += 4) phase_words[lanes[i] / phase_lanes].insert(b / 4);
    if (first.width > 4 && !first.store)
      for (std::uint32_t p = 0; p < 32 / phase_lanes; p += 2) {
        if (!phase_words.count(p) || !phase_words.count(p + 1)) continue;
        const auto pairs_agree = [&](std::uint32_t x) {
          for (std::uint32_t lane = p * phase_lanes; lane < (p + 2) * phase_lanes; ++lane)
            if (addr_of.count(lane) != addr_of.count(lane ^ x) || (addr_of.count(lane) && addr_of[lane] != addr_of[lane ^ x]))
              return false;
          return true;
        };
        std::set<std::uint64_t> both = phase_words[p];
        both.insert(phase_words[p + 1].begin(), phase_words[p + 1].end());
        std::set<std::uint64_t> banks;
        for (std::uint64_t w : both) banks.insert(w % 32);
        if ((pairs_agree(1) || pairs_agree(2)) && banks.size() == both.size()) {
          phase_words[p] = both;
          phase_words.erase(p + 1);
        }
      }
    for (const auto& [phase, words] : phase_words) {
      std::map<std::uint64_t, std::uint64_t> per_bank;
      std::uint64_t ways = 0;
      for (std::uint64_t w : words) ways = std::max(ways, ++per_bank[w % 32]);
      t.wavefronts += ways;
      t.bank_conflicts += ways - 1;
    }
  }

  // A cp.async copy's read of 4 or 8 bytes: its write (the lane's row after
  // the read's elements, in the same thread) takes a wavefront more per
  // 128-byte line beyond the first that a phase reads (the warp for 4 bytes,
  // a half-warp for 8), counted as a conflict of the destination's stores.
  void copy_lines(const std::vector<long>& lane_rows, const std::vector<std::uint32_t>& lanes, const Row& first) {
    if (!first.async || first.store || first.width > 8) return;
    const std::size_t floats = first.width / 4;
    const auto write_of = [&](std::size_t read) -> const Row* {
      if (read + floats >= rows_.size()) return nullptr;
      const Row& r = rows_[read];
      const Row& w = rows_[read + floats];
      const bool same_thread = r.block_x == w.block_x && r.block_y == w.block_y && r.thread_x == w.thread_x &&
                               r.thread_y == w.thread_y && r.seq + floats == w.seq;
      return same_thread && w.async && w.store && w.shared ? &w : nullptr;
    };
    const Row* write = write_of(static_cast<std::size_t>(lane_rows[lanes[0]]));
    if (!write) return;
    std::map<std::uint32_t, std::set<std::uint64_t>> phase_lines;
    for (std::uint32_t lane : lanes)
      phase_lines[lane / (first.width == 4 ? 32 : 16)].insert(rows_[lane_rows[lane]].addr / 128);
    Totals& t = by_array_op[{write->array, true}];
    for (const auto& [phase, lines] : phase_lines) {
      t.wavefronts += lines.size() - 1;
      t.bank_conflicts += lines.size() - 1;
    }
  }

  // The rows of an mma A fragment with its slot (fragment column a0..a3).
  std::size_t fragment_row(long a0, int slot) const {
    for (std::size_t i = static_cast<std::size_t>(a0); i < rows_.size() && rows_[i].access == rows_[a0].access; ++i)
      if (rows_[i].slot == slot) return i;
    throw std::runtime_error("an A fragment without a" + std::to_string(slot));
  }

  // ldmatrix.x4: lane i points at the 16-byte row that lanes 4 (i % 8) .. + 3
  // hold in register a(i / 8); the banks serve those rows.
  std::vector<std::uint64_t> ldmatrix_rows(const std::vector<long>& lane_rows, std::vector<std::uint64_t> addrs) const {
    if (addrs.size() != 32) return addrs;
    for (std::uint32_t i = 0; i < 32; ++i) addrs[i] = rows_[fragment_row(lane_rows[4 * (i % 8)], int(i / 8))].addr;
    return addrs;
  }

  // kernels/api/mma.h's layouts, group = lane / 4, quad = lane % 4:
  // a0 (group, quad), a1 (group + 8, quad), a2 (group, quad + 4), a3 (group + 8, quad + 4);
  // b0 (quad, group), b1 (quad + 4, group), B's row being k: a lane's b1
  // follows its b0 four rows down.
  void check_fragment_layout(const std::vector<long>& lane_rows, const std::vector<std::uint32_t>& lanes) {
    const Row& base = rows_[lane_rows[lanes[0]]];
    for (std::uint32_t l : lanes) {
      const Row& r = rows_[lane_rows[l]];
      const int group = int(l) / 4, quad = int(l) % 4, lane0 = int(lanes[0]);
      const bool a = r.fragment == 'a';
      // An A access starts at a0; b0 and b1 are accesses of their own, one instruction each.
      ASSERT_EQ(r.slot, a ? 0 : base.slot) << "lane " << l;
      EXPECT_EQ(int(r.row) - int(base.row), a ? group - lane0 / 4 : quad - lane0 % 4) << "lane " << l;
      EXPECT_EQ(int(r.col) - int(base.col), a ? quad - lane0 % 4 : group - lane0 / 4) << "lane " << l;
      if (a) {
        for (int s = 1; s < 4; ++s) {
          const Row& x = rows_[fragment_row(lane_rows[l], s)];
          EXPECT_EQ(x.row, r.row + 8 * (s % 2));
          EXPECT_EQ(x.col, r.col + 4 * (s / 2));
        }
      } else if (r.slot == 1) {
        const Row& b0 = rows_[lane_rows[l] - 1];
        ASSERT_EQ(b0.slot, 0) << "lane " << l;
        EXPECT_EQ(r.row, b0.row + 4);
        EXPECT_EQ(r.col, b0.col);
      }
    }
    ++fragment_requests;
  }

  const std::vector<Row>& rows_;
};

struct Case {
  const char* kernel;
  int tile, m, n, k;
  bool tf32;
};

class CsvRecompute : public ::testing::TestWithParam<Case> {};

TEST_P(CsvRecompute, CAndCountersFromTheCsvAlone) {
  const Case c = GetParam();
  const fs::path trace = temp(std::string("csv_") + c.kernel + ".tstrace"), csv = temp(std::string(c.kernel) + ".csv");
  const Result rec = run("record --kernel " + std::string(c.kernel) + " --tile " + std::to_string(c.tile) + " --m " +
                         std::to_string(c.m) + " --n " + std::to_string(c.n) + " --k " + std::to_string(c.k) +
                         " --seed 7 --device cpu -o " + trace.string());
  ASSERT_EQ(rec.code, 0) << rec.err;
  const Result st = run("stats " + trace.string() + " --json");
  ASSERT_EQ(st.code, 0) << st.err;
  const nlohmann::json stats = nlohmann::json::parse(st.out);
  const Result ex = run("export " + trace.string() + " --csv -o " + csv.string());
  ASSERT_EQ(ex.code, 0) << ex.err;
  std::string text;
  {
    std::ifstream in(csv, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  fs::remove(trace);
  fs::remove(csv);
  const std::vector<Row> rows = parse_csv(text);
  ASSERT_EQ(rows.size(), stats["events"].get<std::size_t>());

  // A and B from the global loads; the sizes from the largest coordinates.
  std::uint32_t m = 0, n = 0, k = 0, k_of_b = 0;
  for (const Row& r : rows) {
    if (r.array == kA && !r.store) m = std::max(m, r.row + 1), k = std::max(k, r.col + 1);
    if (r.array == kB && !r.store) k_of_b = std::max(k_of_b, r.row + 1), n = std::max(n, r.col + 1);
  }
  ASSERT_EQ(m, std::uint32_t(c.m));
  ASSERT_EQ(n, std::uint32_t(c.n));
  ASSERT_EQ(k, std::uint32_t(c.k));
  ASSERT_EQ(k_of_b, k);
  std::vector<float> a(std::size_t{m} * k, NAN), b(std::size_t{k} * n, NAN), stored(std::size_t{m} * n, NAN);
  std::vector<int> stores(std::size_t{m} * n, 0);
  for (const Row& r : rows) {
    if (r.shared) continue;
    float* slot = r.array == kA ? &a[std::size_t{r.row} * k + r.col]
                : r.array == kB ? &b[std::size_t{r.row} * n + r.col]
                                : &stored[std::size_t{r.row} * n + r.col];
    ASSERT_EQ(r.store, r.array == kC);
    if (r.array == kC) ++stores[std::size_t{r.row} * n + r.col];
    if (!std::isnan(*slot) && r.array != kC) {
      ASSERT_EQ(*slot, r.value) << "one element loaded with two values";
    }
    *slot = r.value;
  }
  for (float v : a) ASSERT_FALSE(std::isnan(v)) << "an element of A never loaded";
  for (float v : b) ASSERT_FALSE(std::isnan(v)) << "an element of B never loaded";
  for (int s : stores) ASSERT_EQ(s, 1) << "a cell of C not stored exactly once";

  // C in double, from the (TF32-rounded) inputs; the tolerance covers an FP32
  // sum of K products (and the tensor cores' truncating adder), not TF32's
  // rounding of the inputs, 2^-11 of each product.
  const auto cells_off = [&](bool round) {
    std::size_t off = 0;
    double worst = 0;
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) {
        double sum = 0, magnitude = 0;
        for (std::uint32_t q = 0; q < k; ++q) {
          const double x = round ? tf32(a[i * k + q]) : a[i * k + q], y = round ? tf32(b[q * n + j]) : b[q * n + j];
          sum += x * y;
          magnitude += std::fabs(x * y);
        }
        const double err = std::fabs(stored[i * n + j] - sum), tol = 2.0 * (k + 2) * std::ldexp(magnitude, -24);
        worst = std::max(worst, err / std::max(tol, 1e-30));
        off += err > tol;
      }
    return std::pair{off, worst};
  };
  const auto [off, worst] = cells_off(c.tf32);
  EXPECT_EQ(off, 0u) << "worst error / tolerance " << worst;
  if (c.tf32) {
    EXPECT_GT(cells_off(false).first, std::size_t{m} * n / 2) << "FP32 inputs should miss TF32's C";
  }

  // The counters, warp by warp: a warp's lanes are its threads in x-fastest order.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::size_t>>> warps;
  std::size_t fragments = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    warps[{r.block_y, r.block_x, r.warp}][{r.thread_y, r.thread_x}].push_back(i);
    if (r.fragment) {
      ++fragments;
      ASSERT_TRUE(r.shared && !r.store && !r.async && (r.array == 3 || r.array == 4)) << "row " << i;
      ASSERT_EQ(r.width, r.fragment == 'a' ? 16u : 4u);
      ASSERT_LT(r.slot, r.fragment == 'a' ? 4 : 2);
      ASSERT_EQ(r.seq - r.access, r.fragment == 'a' ? std::uint64_t(r.slot) : 0u) << "a0..a3 are one access";
    }
  }
  Recount recount(rows);
  for (const auto& [who, threads] : warps) {
    Lanes lanes;
    for (const auto& [thread, mine] : threads) lanes.push_back(mine);
    recount.warp(lanes);
  }
  if (c.tf32) {
    EXPECT_GT(fragments, 0u);
    EXPECT_GT(recount.fragment_requests, 0u);
  } else {
    EXPECT_EQ(fragments, 0u);
  }
  EXPECT_EQ(recount.realigned_lanes, stats["memory"]["alignment"]["realigned_lanes"].get<std::uint64_t>());

  std::map<std::string, std::uint64_t> totals;
  for (int arr = 0; arr < 5; ++arr)
    for (bool store : {false, true}) {
      const auto it = recount.by_array_op.find({arr, store});
      const Totals t = it == recount.by_array_op.end() ? Totals{} : it->second;
      const std::string op = store ? "store" : "load", space = arr == kA || arr == kB || arr == kC ? "global" : "shared";
      const auto& j = stats["memory"]["by_array"];
      if (!j.contains(kArrays[arr]) || !j[kArrays[arr]].contains(op)) {
        EXPECT_EQ(t.requests, 0u) << kArrays[arr] << " " << op;
        continue;
      }
      const auto& s = j[kArrays[arr]][op];
      const std::string what = std::string(kArrays[arr]) + " " + op;
      EXPECT_EQ(t.requests, s["requests"].get<std::uint64_t>()) << what;
      EXPECT_EQ(t.accesses, s["accesses"].get<std::uint64_t>()) << what;
      totals[space + "_" + op + "_requests"] += t.requests;
      if (space == "global") {
        EXPECT_EQ(t.sectors, s["sectors"].get<std::uint64_t>()) << what;
        EXPECT_EQ(t.lines, s["lines"].get<std::uint64_t>()) << what;
        totals[space + "_" + op + "_sectors"] += t.sectors;
        totals[space + "_" + op + "_lines"] += t.lines;
      } else {
        EXPECT_EQ(t.wavefronts, s["wavefronts"].get<std::uint64_t>()) << what;
        EXPECT_EQ(t.bank_conflicts, s["bank_conflicts"].get<std::uint64_t>()) << what;
        totals[space + "_" + op + "_wavefronts"] += t.wavefronts;
        totals["shared_bank_conflicts_" + op] += t.bank_conflicts;
      }
    }
  for (const auto& [key, value] : totals) EXPECT_EQ(value, stats[key].get<std::uint64_t>()) << key;
  EXPECT_GT(totals["global_load_requests"], 0u);
  EXPECT_GT(totals["global_store_sectors"], 0u);
}

// Small non-square shapes, multiples of 4 and of no rung's tiles, so that edge
// blocks and lanes that skip accesses are part of every case; N = 76 leaves
// blocktile-2d's and vectorized's edge threads part of their 8 columns, so
// their stores of C need the realignment (as tf32-tensor-core's do).
INSTANTIATE_TEST_SUITE_P(
    Ladder, CsvRecompute,
    ::testing::Values(Case{"tiled", 8, 20, 28, 12, false}, Case{"blocktile-1d", 16, 68, 36, 20, false},
                      Case{"blocktile-2d", 16, 132, 76, 12, false}, Case{"vectorized", 16, 132, 76, 20, false},
                      Case{"warptile", 16, 68, 140, 36, false}, Case{"double-buffer", 16, 68, 140, 20, false},
                      Case{"tf32-tensor-core", 16, 68, 76, 36, true}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name = info.param.kernel;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

}  // namespace
