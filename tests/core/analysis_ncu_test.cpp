// Reading ncu's CSV and cuobjdump's SASS, and the trace-vs-hardware table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "app/core/analysis/ncu_import.h"
#include "app/core/analysis/ncu_table.h"

namespace ts {
namespace {

// As `ncu --csv --print-units base` prints it, with ncu's own notes and the
// profiled program's output in between.
constexpr const char* kCsv = R"csv(==PROF== Connected to process 4242 (/srv/.gpu-bin/ncu_launches)
==PROF== Profiling "plain_kernel": 0%....50%....100% - 3 passes
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","ncu_launches","127.0.0.1","void ts::gpu::<unnamed>::plain_kernel<(ts::KernelKind)4, 32>(const float *, const float *, float *, int, int, int)","1","7","(32, 32, 1)","(2, 2, 1)","0","9.0","Command line profiler metrics","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","request","512"
"0","4242","ncu_launches","127.0.0.1","void ts::gpu::<unnamed>::plain_kernel<(ts::KernelKind)4, 32>(const float *, const float *, float *, int, int, int)","1","7","(32, 32, 1)","(2, 2, 1)","0","9.0","Command line profiler metrics","l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum","","7,936"
"0","4242","ncu_launches","127.0.0.1","void ts::gpu::<unnamed>::plain_kernel<(ts::KernelKind)4, 32>(const float *, const float *, float *, int, int, int)","1","7","(32, 32, 1)","(2, 2, 1)","0","9.0","Command line profiler metrics","smsp__sass_inst_executed_op_shared_ld.sum","inst","n/a"
ncu_launches: 2 launches on NVIDIA H200, manifest launches.json
"1","4242","ncu_launches","127.0.0.1","void ts::gpu::<unnamed>::plain_kernel<(ts::KernelKind)0, 0>(const float *, const float *, float *, int, int, int)","1","7","(16, 16, 1)","(16, 16, 1)","0","9.0","Command line profiler metrics","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","1,310,720"
)csv";

TEST(NcuImport, ReadsLaunchesMetricsAndShapes) {
  std::istringstream in(kCsv);
  const std::vector<NcuLaunch> l = parse_ncu_csv(in);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].id, 0);
  EXPECT_EQ(l[0].block, (Dim3{32, 32, 1}));
  EXPECT_EQ(l[0].grid, (Dim3{2, 2, 1}));
  EXPECT_NE(l[0].kernel_name.find("(ts::KernelKind)4, 32"), std::string::npos);  // a comma inside quotes
  EXPECT_EQ(l[0].metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 512);
  EXPECT_EQ(l[0].metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 7936);
  EXPECT_EQ(l[0].metrics.count("smsp__sass_inst_executed_op_shared_ld.sum"), 0u);  // n/a is left out
  EXPECT_EQ(l[1].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 1310720);
}

TEST(NcuImport, RejectsWhatIsNotAnNcuTable) {
  std::istringstream empty("==PROF== nothing was profiled\n");
  EXPECT_THROW(parse_ncu_csv(empty), NcuImportError);
  std::istringstream no_value("\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\"\n");
  EXPECT_THROW(parse_ncu_csv(no_value), NcuImportError);
  std::istringstream short_row(std::string(kCsv).substr(0, std::string(kCsv).find("\"0\",\"4242\"")) + "\"0\",\"1\"\n");
  EXPECT_THROW(parse_ncu_csv(short_row), NcuImportError);
  std::istringstream bad_shape(R"csv("ID","Kernel Name","Block Size","Grid Size","Metric Name","Metric Value"
"0","k","(16, x, 1)","(1, 1, 1)","m","1"
)csv");
  EXPECT_THROW(parse_ncu_csv(bad_shape), NcuImportError);
}

TEST(NcuImport, CountsTheMemoryInstructionsOfEachPlainKernel) {
  std::istringstream in(R"sass(
	code for sm_90
		Function : _ZN2ts3gpu49_GLOBAL__N__ebcaa5b4_16_plain_kernels_cu_5c266ef712plain_kernelILNS_10KernelKindE2ELi16EEEvPKfS5_Pfiii
	.headerflags	@"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
        /*0090*/               @P0 LDG.E.CONSTANT R4, desc[UR4][R2.64] ;   /* 0x0000000402040981 */
        /*00a0*/                   STS [R7], R4 ;                          /* 0x0000000407007388 */
        /*00b0*/                   LDS.128 R8, [R6] ;                      /* 0x0000000006087984 */
        /*00c0*/                   LDS.128 R12, [R6+0x10] ;                /* 0x00001000060c7984 */
        /*00d0*/                   LDS R16, [R5+0x40] ;                    /* 0x0000400005107984 */
        /*00e0*/                   STG.E desc[UR4][R2.64], R9 ;            /* 0x0000000902007986 */
		Function : _ZN2ts3gpu49_GLOBAL__N__ebcaa5b4_16_plain_kernels_cu_5c266ef712plain_kernelILNS_10KernelKindE0ELi0EEEvPKfS5_Pfiii
        /*0010*/                   LDG.E.CONSTANT R4, desc[UR4][R2.64] ;   /* 0x0000000402047981 */
		Function : _Z9somethingelsev
        /*0010*/                   LDS R4, [R2] ;                          /* 0x0000000402047984 */
)sass");
  const std::vector<SassCounts> s = parse_sass(in);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].kind, 2);
  EXPECT_EQ(s[0].tile, 16);
  EXPECT_EQ(s[0].opcodes.at("LDS.128"), 2);
  EXPECT_EQ(s[0].opcodes.at("LDS"), 1);
  EXPECT_EQ(s[0].opcodes.at("STS"), 1);
  EXPECT_EQ(s[0].opcodes.at("LDG.E.CONSTANT"), 1);
  EXPECT_EQ(s[0].opcodes.at("STG.E"), 1);
  EXPECT_EQ(s[0].opcodes.count("LDC"), 0u);
  EXPECT_EQ(find_sass(s, 0, 32)->kind, 0);  // the naive kernels' one build serves every TILE
  EXPECT_EQ(find_sass(s, 2, 16)->tile, 16);
  EXPECT_FALSE(find_sass(s, 2, 8).has_value());
}

// A rung's plain kernel (plain_rung<KernelKind>, no TILE) with what a cp.async
// pipeline compiles to: three never-executing LDS before each LDGSTS, the
// out-of-bounds zero written by a guarded STS of RZ.
TEST(NcuImport, CountsARungsCopiesPaddingAndGuardedZeroStores) {
  std::istringstream in(R"sass(
		Function : _ZN2ts3gpu49_GLOBAL__N__aea1ab1b_16_plain_kernels_cu_5c266ef710plain_rungILNS_10KernelKindE10EEEvPKfS5_Pfiii
        /*0d90*/               @!P1 STS.128 [R11], RZ ;                           /* 0x000000ff0b009388 */
        /*0db0*/                @!PT LDS RZ, [RZ] ;                               /* 0x00000000ff00f984 */
        /*0dc0*/                @!PT LDS RZ, [RZ] ;                               /* 0x00000000ff00f984 */
        /*0dd0*/                @!PT LDS RZ, [RZ] ;                               /* 0x00000000ff00f984 */
        /*0de0*/                @P1 LDGSTS.E.BYPASS.128 [R11], [R4.64] ;          /* 0x00000000040b1fae */
        /*0e20*/               @!P0 STS [R17+0x210], RZ ;                         /* 0x000210ff11008388 */
        /*0e30*/                @P0 LDGSTS.E [R17+0x210], [R6.64] ;              /* 0x0000000006110fae */
        /*0e40*/                    STS [R24], R21 ;                              /* 0x0000001518007388 */
        /*2f20*/                    LDS.128 R80, [R3] ;                           /* 0x0000000003507984 */
        /*74c0*/               @!P3 STG.E.128 desc[UR4][R2.64], R32 ;             /* 0x0000002002003986 */
		Function : _ZN2ts3gpu49_GLOBAL__N__aea1ab1b_16_plain_kernels_cu_5c266ef712plain_kernelILNS_10KernelKindE2ELi8EEEvPKfS5_Pfiii
        /*00b0*/                    LDS R4, [R2] ;                                /* 0x0000000402047984 */
)sass");
  const std::vector<SassCounts> s = parse_sass(in);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].kind, 10);
  EXPECT_EQ(s[0].tile, 0);  // a rung: no TILE
  const std::map<std::string, int> expected{{"STS.128", 1},      {"@P STS.128 RZ", 1}, {"@!PT LDS", 3},
                                            {"LDGSTS.E.BYPASS.128", 1}, {"STS", 2},   {"@P STS RZ", 1},
                                            {"LDGSTS.E", 1},     {"LDS.128", 1},       {"STG.E.128", 1}};
  EXPECT_EQ(s[0].opcodes, expected);  // the padding LDS are not LDS; STS [R24], R21 is no zero store
  EXPECT_EQ(find_sass(s, 10, 0)->kind, 10);
  EXPECT_EQ(find_sass(s, 2, 8)->opcodes.at("LDS"), 1);
}

NcuRow transposed_row() {
  NcuRow r;
  r.kernel = "tiled-transposed";
  r.tile = 32;
  r.n = 64;
  r.trace = {{"global_load_requests", 512},          {"global_load_sectors", 2048},
             {"global_store_requests", 128},         {"global_store_sectors", 512},
             {"shared_load_requests", 16384},        {"shared_load_wavefronts", 270336},
             {"shared_bank_conflicts_load", 253952}, {"shared_store_requests", 512},
             {"shared_store_wavefronts", 8448},      {"shared_bank_conflicts_store", 7936}};
  r.hardware = {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 512},
                {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 2048},
                {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 128},
                {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 515},
                {"smsp__sass_inst_executed_op_shared_ld.sum", 4096},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 139264},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 122880},
                {"smsp__sass_inst_executed_op_shared_st.sum", 512},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 7936}};
  r.sass = {{"LDS.128", 16}, {"STS", 2}};
  return r;
}

TEST(NcuTable, ComparesEachPairAndSaysWhyTheyDiffer) {
  const std::vector<CounterComparison> c = compare_row(transposed_row());
  ASSERT_EQ(c.size(), compared_counters().size());
  auto find = [&](std::string_view key) {
    for (const CounterComparison& x : c)
      if (x.pair->trace_key == key) return x;
    ADD_FAILURE() << key;
    return CounterComparison{};
  };
  EXPECT_EQ(find("global_load_requests").agreement, Agreement::Equal);
  EXPECT_TRUE(find("global_load_requests").why.empty());
  EXPECT_EQ(find("global_store_sectors").agreement, Agreement::Close);  // 515 against 512
  const CounterComparison loads = find("shared_load_requests");
  EXPECT_EQ(loads.agreement, Agreement::Differs);
  EXPECT_NE(loads.why.find("merged"), std::string::npos);
  EXPECT_NE(loads.why.find("4.00"), std::string::npos);     // four floats per instruction
  EXPECT_NE(loads.why.find("LDS.128 x16"), std::string::npos);
  EXPECT_NE(find("shared_bank_conflicts_load").why.find("128-bit"), std::string::npos);
  EXPECT_EQ(find("shared_bank_conflicts_store").agreement, Agreement::Equal);
  EXPECT_EQ(find("shared_store_wavefronts").agreement, Agreement::Missing);
}

TEST(NcuTable, RoundTripsThroughJsonAndFindsRows) {
  NcuTable t;
  t.gpu = "NVIDIA H200";
  t.date = "2026-11-21T10:00:00Z";
  t.ncu_version = "2025.3.1";
  t.trace_device = "NVIDIA H200";
  t.rows.push_back(transposed_row());
  const NcuTable back = ncu_table_from_json(nlohmann::json::parse(ncu_table_to_json(t).dump()));
  EXPECT_EQ(back.gpu, t.gpu);
  ASSERT_NE(back.find("tiled-transposed", 32, 64), nullptr);
  EXPECT_EQ(back.find("tiled-transposed", 32, 64)->hardware, t.rows[0].hardware);
  EXPECT_EQ(back.find("tiled-transposed", 32, 64)->sass, t.rows[0].sass);
  EXPECT_EQ(back.find("tiled", 32, 64), nullptr);
  const std::string md = ncu_table_markdown(back);
  EXPECT_NE(md.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(md.find("| tiled-transposed | 32 | 64 | shared load bank conflicts | 253952 | 122880 | differs |"),
            std::string::npos);
}

TEST(NcuTable, ADamagedTableIsATypedError) {
  EXPECT_THROW(ncu_table_from_json(nlohmann::json::parse(R"({"gpu": "x"})")), NcuTableError);
  EXPECT_THROW(ncu_table_from_json(nlohmann::json::parse(R"({"gpu": 1, "date": "", "rows": []})")), NcuTableError);
  EXPECT_THROW(ncu_table_from_json(nlohmann::json::parse(R"({"gpu": "g", "date": "d", "rows": [{"kernel": "k"}]})")),
               NcuTableError);
  EXPECT_THROW(load_ncu_table("/nonexistent/table.json"), NcuTableError);
  // Numbers no int holds are refused, not converted.
  const char* row = R"({"gpu": "g", "date": "d", "rows": [{"kernel": "k", "tile": TILE, "n": 64, "trace": {},
                        "hardware": {}, "sass": {"LDS": SASS}}]})";
  auto table = [&](const std::string& tile, const std::string& sass) {
    std::string text = row;
    text.replace(text.find("TILE"), 4, tile);
    text.replace(text.find("SASS"), 4, sass);
    return nlohmann::json::parse(text);
  };
  EXPECT_NO_THROW(ncu_table_from_json(table("16", "4")));
  EXPECT_THROW(ncu_table_from_json(table("1e30", "4")), NcuTableError);
  EXPECT_THROW(ncu_table_from_json(table("16", "4.5")), NcuTableError);
  EXPECT_THROW(ncu_table_from_json(table("16", "-1e20")), NcuTableError);
}

TEST(NcuTable, AsksNcuForEveryComparedMetric) {
  const std::vector<std::string> m = ncu_metrics();
  for (const CounterPair& p : compared_counters()) {
    EXPECT_NE(std::find(m.begin(), m.end(), std::string(p.ncu_metric)), m.end()) << p.ncu_metric;
    for (std::string_view added : p.ncu_added) {
      if (!added.empty()) {
        EXPECT_NE(std::find(m.begin(), m.end(), std::string(added)), m.end()) << added;
      }
    }
  }
  for (const std::string& x : m) EXPECT_EQ(std::count(m.begin(), m.end(), x), 1) << x;  // each asked for once
  EXPECT_NE(std::find(m.begin(), m.end(), "smsp__inst_executed_op_ldgsts.sum"), m.end());
}

CounterComparison find_pair(const std::vector<CounterComparison>& c, std::string_view key) {
  for (const CounterComparison& x : c)
    if (x.pair->trace_key == key) return x;
  ADD_FAILURE() << key;
  return CounterComparison{};
}

// double-buffer at N = 4096 as Nsight Compute 2025.3 measured it on an H100
// (2026-11-23, assets/ncu/counters-vs-ncu-4096.json): per warp and k-tile
// (WK), 8 four-byte and 2 sixteen-byte cp.async, whose reads op_ld already
// counts (the op_ldgsts_cache_access metrics count the 4-byte ones again) and
// whose writes the shared-store instructions leave out; 64 float4 shared
// loads, 3 wavefronts each on average (A's fragments 2, a half-warp's lane
// pairs sharing their float4; B's 4). The trace's side is the model's.
NcuRow double_buffer_row() {
  constexpr double WK = 1024.0 * 8 * 256;
  NcuRow r;
  r.kernel = "double-buffer";
  r.tile = 0;
  r.n = 4096;
  r.trace = {{"global_load_requests", 10 * WK},     {"global_load_sectors", 160 * WK},
             {"global_store_requests", 131072},     {"global_store_sectors", 2097152},
             {"shared_load_requests", 64 * WK},     {"shared_load_wavefronts", 192 * WK},
             {"shared_bank_conflicts_load", 0},     {"shared_store_requests", 10 * WK},
             {"shared_store_wavefronts", 24 * WK},  {"shared_bank_conflicts_store", 8 * WK}};
  r.hardware = {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 20971520},
                {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 335544320},
                {"l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", 16777216},
                {"l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", 268435456},
                {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 131072},
                {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2097152},
                {"smsp__sass_inst_executed_op_global_ld.sum", 0},
                {"smsp__inst_executed_op_ldgsts.sum", 20971520},
                {"smsp__sass_inst_executed_op_shared_ld.sum", 134217728},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 405038899},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 2385715},
                {"smsp__sass_inst_executed_op_shared_st.sum", 0},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", 138106171}};
  r.sass = {{"LDGSTS.E", 24}, {"LDGSTS.E.BYPASS.128", 12}, {"@!PT LDS", 108}, {"LDS.128", 68},
            {"STS", 24},      {"@P STS RZ", 24},          {"STS.128", 12},   {"@P STS.128 RZ", 12}};
  return r;
}

TEST(NcuTable, CpAsyncCopiesCountAsGlobalLoadsAndSharedStores) {
  const std::vector<CounterComparison> c = compare_row(double_buffer_row());
  for (const char* key : {"global_load_requests", "global_load_sectors", "shared_store_requests",
                          "global_store_requests", "shared_load_requests"}) {
    EXPECT_EQ(find_pair(c, key).agreement, Agreement::Equal) << key << ": " << find_pair(c, key).why;
  }
  // op_ld alone: the op_ldgsts_cache_access requests are not added a second time.
  EXPECT_DOUBLE_EQ(find_pair(c, "global_load_requests").hardware, 10.0 * 1024 * 8 * 256);
  EXPECT_DOUBLE_EQ(find_pair(c, "shared_store_requests").hardware, 10.0 * 1024 * 8 * 256);  // op_st + LDGSTS issued
  // No ncu metric holds cp.async's shared-write wavefronts on this version:
  // where every shared store is a cp.async, ncu's 0 is put down to that, and
  // the row says the trace's figure cannot be checked.
  const CounterComparison w = find_pair(c, "shared_store_wavefronts");
  EXPECT_EQ(w.agreement, Agreement::Differs);
  EXPECT_TRUE(w.explained) << w.why;
  EXPECT_NE(w.why.find("cannot be checked"), std::string::npos) << w.why;
  EXPECT_TRUE(std::isnan(w.per_instruction));  // no SASS-level wavefronts in this row
  // With the SASS-level op_st and op_ldgsts wavefronts, the copies' writes are counted per instruction.
  NcuRow per = double_buffer_row();
  per.hardware["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 0;
  per.hardware["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"] = 24 * 1024.0 * 8 * 256;
  const CounterComparison pw = find_pair(compare_row(per), "shared_store_wavefronts");
  EXPECT_EQ(pw.per_instruction_agreement, Agreement::Equal);
  EXPECT_TRUE(pw.explained);
  EXPECT_NE(pw.why.find("Nsight counts 50331648 wavefronts, the trace's"), std::string::npos) << pw.why;
  per.hardware["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"] = 1000;
  EXPECT_NE(find_pair(compare_row(per), "shared_store_wavefronts").why.find("1000 wavefronts, the trace 50331648"),
            std::string::npos);
  // With a plain STS executed beside the copies, ncu's 0 is no longer that: unexplained.
  NcuRow with_sts = double_buffer_row();
  with_sts.hardware["smsp__sass_inst_executed_op_shared_st.sum"] = 1024;
  EXPECT_FALSE(find_pair(compare_row(with_sts), "shared_store_wavefronts").explained);
}

// tf32-tensor-core's copies at N = 4096 as Nsight Compute 2025.3.1 counted
// them on an H100 (2026-11-25, assets/ncu/counters-vs-ncu-4096.json): every
// global load a 16-byte cp.async.cg, half of them of A (8 rows x 64 bytes into
// shared rows padded to 80 bytes), half of B. ncu counts 18 sectors per copy
// where the bytes occupy 16; copy_sectors_probe measured 20 for A's layout
// and 16 for B's (assets/ncu/copy-sectors-h100.txt): (20 + 16) / 2 = 18.
NcuRow tf32_copies_row() {
  NcuRow r;
  r.kernel = "tf32-tensor-core";
  r.n = 4096;
  r.trace = {{"global_load_requests", 16777216}, {"global_load_sectors", 268435456}};
  r.hardware = {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 16777216},
                {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 301989888},
                {"smsp__sass_inst_executed_op_global_ld.sum", 0},
                {"smsp__inst_executed_op_ldgsts.sum", 16777216}};
  r.sass = {{"@!PT LDS", 9}, {"LDGSTS.E.BYPASS.128", 12}, {"LDS", 16}, {"LDSM.16.M88.4", 4}, {"STG.E.64", 16}};
  return r;
}

TEST(NcuTable, BypassCopiesIntoPaddedRowsCountMoreSectorsAsMeasured) {
  const CounterComparison s = find_pair(compare_row(tf32_copies_row()), "global_load_sectors");
  EXPECT_EQ(s.agreement, Agreement::Differs);
  EXPECT_TRUE(s.explained) << s.why;
  EXPECT_NE(s.why.find("8 rows x 64 bytes into rows padded to 80 bytes (tf32-tensor-core's As) 20 sectors a copy"),
            std::string::npos)
      << s.why;
  EXPECT_NE(s.why.find("33554432 more, 2.00 per copy executed (16777216)"), std::string::npos) << s.why;
  EXPECT_EQ(find_pair(compare_row(tf32_copies_row()), "global_load_requests").agreement, Agreement::Equal);
  // A plain global load beside the copies: the excess may be its own; no rule.
  NcuRow with_ldg = tf32_copies_row();
  with_ldg.sass["LDG.E.128"] = 2;
  EXPECT_FALSE(find_pair(compare_row(with_ldg), "global_load_sectors").explained);
  // Copies that stay in L1 (cp.async.ca) are not split: no rule.
  NcuRow cached = tf32_copies_row();
  cached.sass.erase("LDGSTS.E.BYPASS.128");
  cached.sass["LDGSTS.E.128"] = 12;
  EXPECT_FALSE(find_pair(compare_row(cached), "global_load_sectors").explained);
  // More than twice the sectors (over 16 more per copy of 32 half-sectors) is beyond any split.
  NcuRow beyond = tf32_copies_row();
  beyond.hardware["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 268435456.0 + 17.0 * 16777216;
  EXPECT_FALSE(find_pair(compare_row(beyond), "global_load_sectors").explained);
}

TEST(NcuTable, ExplainsWhatARungsPlainBuildAddsOrMerges) {
  const std::vector<CounterComparison> c = compare_row(double_buffer_row());
  // The float4 fragment loads: the model's wavefronts (A's lane pairs share
  // their float4) are Nsight's per instruction; the hardware counter's excess
  // is its conflicts'.
  const CounterComparison wavefronts = find_pair(c, "shared_load_wavefronts");
  EXPECT_EQ(wavefronts.agreement, Agreement::Close);
  EXPECT_TRUE(wavefronts.explained);
  EXPECT_NE(wavefronts.why.find("extra bank conflicts (2385715)"), std::string::npos) << wavefronts.why;
  NcuRow patched = double_buffer_row();
  patched.hardware["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 192 * 1024.0 * 8 * 256;
  EXPECT_EQ(find_pair(compare_row(patched), "shared_load_wavefronts").per_instruction_agreement, Agreement::Equal);

  // Where ncu counts never-executing padding loads (`@!PT LDS`, 3 per cp.async), the excess is named exactly.
  NcuRow padded = double_buffer_row();
  padded.hardware["smsp__sass_inst_executed_op_shared_ld.sum"] += 3 * 20971520.0;
  const CounterComparison loads = find_pair(compare_row(padded), "shared_load_requests");
  EXPECT_EQ(loads.agreement, Agreement::Differs);
  EXPECT_TRUE(loads.explained);
  EXPECT_NE(loads.why.find("never execute"), std::string::npos) << loads.why;
  EXPECT_NE(loads.why.find("3 x 20971520"), std::string::npos) << loads.why;
  EXPECT_NE(loads.why.find("108 in the SASS"), std::string::npos) << loads.why;
  // Padding that does not add up to 3 per issued LDGSTS is not claimed.
  padded.hardware["smsp__sass_inst_executed_op_shared_ld.sum"] += 1000;
  const CounterComparison odd = find_pair(compare_row(padded), "shared_load_requests");
  EXPECT_EQ(odd.why.find("never execute"), std::string::npos) << odd.why;

  // Where ncu counts each guarded zero store beside its copy, the reason says so, with the edges at N = 64.
  NcuRow guarded = double_buffer_row();
  guarded.hardware["smsp__sass_inst_executed_op_shared_st.sum"] = 10 * 1024.0 * 8 * 256;
  const CounterComparison stores = find_pair(compare_row(guarded), "shared_store_requests");
  EXPECT_EQ(stores.agreement, Agreement::Differs);
  EXPECT_TRUE(stores.explained);
  EXPECT_NE(stores.why.find("guard is false"), std::string::npos) << stores.why;
  EXPECT_NE(stores.why.find("36 guarded"), std::string::npos) << stores.why;
  EXPECT_NE(stores.why.find("2.00 instructions per recorded request"), std::string::npos) << stores.why;
  EXPECT_EQ(stores.why.find("past the matrices"), std::string::npos);  // N = 4096 has no edges
  guarded.n = 64;
  guarded.edges = true;
  EXPECT_NE(find_pair(compare_row(guarded), "shared_store_requests").why.find("past the matrices"), std::string::npos);

  // More than twice the model's wavefronts is beyond merged phases: unexplained.
  NcuRow fewer = double_buffer_row();
  fewer.hardware["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 100;
  const CounterComparison few = find_pair(compare_row(fewer), "shared_load_wavefronts");
  EXPECT_FALSE(few.explained);
  EXPECT_EQ(few.why.rfind("unexplained", 0), 0u) << few.why;

  // More requests than the trace's are never "merged" accesses (merging makes fewer).
  NcuRow more = double_buffer_row();
  more.hardware["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 37748736;
  more.hardware["smsp__inst_executed_op_ldgsts.sum"] = 16777216;
  const CounterComparison extra = find_pair(compare_row(more), "global_load_requests");
  EXPECT_EQ(extra.why.find("merged"), std::string::npos) << extra.why;
}

// blocktile-2d at N = 4096: the compiler merges its scalar shared reads into
// LDS.128 (4 floats each) and pairs each staged element's store with a
// guarded store of zero.
constexpr double kWarpTiles = 1024.0 * 8 * 512;  // warps x k-tiles
NcuRow blocktile_2d_row() {
  constexpr double WK = kWarpTiles;
  NcuRow r;
  r.kernel = "blocktile-2d";
  r.n = 4096;
  r.trace = {{"shared_load_requests", 128 * WK}, {"shared_load_wavefronts", 384 * WK},
             {"shared_bank_conflicts_load", 256 * WK}, {"shared_store_requests", 8 * WK},
             {"shared_store_wavefronts", 8 * WK}, {"shared_bank_conflicts_store", 0}};
  r.hardware = {{"smsp__sass_inst_executed_op_shared_ld.sum", 32 * WK},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 160 * WK},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 64 * WK},
                {"smsp__sass_inst_executed_op_shared_st.sum", 16 * WK},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 8 * WK},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0}};
  r.sass = {{"LDS.128", 32}, {"STS", 20}, {"@P STS RZ", 10}};
  return r;
}

TEST(NcuTable, ExplainsMergedLoadsAndGuardedZeroStoresOfAScalarRung) {
  const std::vector<CounterComparison> c = compare_row(blocktile_2d_row());
  EXPECT_NE(find_pair(c, "shared_load_requests").why.find("4.00 of the trace's 4-byte accesses"), std::string::npos);
  EXPECT_NE(find_pair(c, "shared_load_wavefronts").why.find("2 when they all read the same 16 bytes"), std::string::npos);
  EXPECT_NE(find_pair(c, "shared_bank_conflicts_load").why.find("128-bit"), std::string::npos);
  EXPECT_NE(find_pair(c, "shared_store_requests").why.find("10 guarded"), std::string::npos);
  EXPECT_EQ(find_pair(c, "shared_store_wavefronts").agreement, Agreement::Equal);  // a false guard moves no data
  for (const CounterComparison& x : c) EXPECT_TRUE(x.explained) << x.pair->label << ": " << x.why;
}

// The same launch with the trace's shared loads as compiled (the 128 reads of
// a warp's k-tile merged into 32 LDS.128): those are what the table compares,
// and they are ncu's.
TEST(NcuTable, ComparesTheSharedLoadsAsCompiledWhereTheRowHasThem) {
  NcuRow r = blocktile_2d_row();
  r.trace["shared_load_requests_compiled"] = 32 * kWarpTiles;
  r.trace["shared_load_wavefronts_compiled"] = 160 * kWarpTiles;
  r.trace["shared_bank_conflicts_load_compiled"] = 64 * kWarpTiles;
  const std::vector<CounterComparison> c = compare_row(r);
  for (const std::string_view key : {"shared_load_requests", "shared_load_wavefronts", "shared_bank_conflicts_load"}) {
    EXPECT_EQ(find_pair(c, key).agreement, Agreement::Equal) << key << ": " << find_pair(c, key).why;
    EXPECT_DOUBLE_EQ(find_pair(c, key).trace, r.trace.at(std::string(key) + "_compiled"));
  }
  r.trace["shared_load_wavefronts_compiled"] = 170 * kWarpTiles;  // a model that says otherwise is not equal
  EXPECT_EQ(find_pair(compare_row(r), "shared_load_wavefronts").agreement, Agreement::Differs);
}

TEST(NcuTable, ExtraStoreWavefrontsThatNcuCallsConflictsPointToThatRow) {
  NcuRow r = transposed_row();
  r.trace["shared_store_wavefronts"] = 512;
  r.trace["shared_bank_conflicts_store"] = 0;
  r.hardware["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 530;
  r.hardware["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = 18;
  const CounterComparison c = find_pair(compare_row(r), "shared_store_wavefronts");
  EXPECT_TRUE(c.explained);
  EXPECT_NE(c.why.find("as many extra wavefronts as extra bank conflicts (18)"), std::string::npos) << c.why;
  r.hardware["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = 17;  // one short: no link
  const CounterComparison u = find_pair(compare_row(r), "shared_store_wavefronts");
  EXPECT_FALSE(u.explained);
  EXPECT_EQ(u.why.rfind("unexplained", 0), 0u) << u.why;
}

// The textbook kernels at N = 4096 as Nsight Compute 2025.3.1 measured them
// on an NVIDIA H100 80GB HBM3 (2026-11-25, scripts/gpu-checks.d/73-shared-sass.sh:
// one launch each, the hardware counters and the SASS-patched smsp__sass_
// ones side by side), next to the trace's counters of the same launches
// (counted on an H100, assets/ncu/counters-vs-ncu-4096.json; the counters
// do not change from run to run). The compiler merges the scalar shared
// reads into LDS.128, so the shared load instructions and wavefronts differ.
struct SharedLaunch {
  const char* kernel;
  int tile;
  double trace_ld_requests, trace_ld_wavefronts, trace_ld_conflicts;
  double trace_st_requests, trace_st_wavefronts, trace_st_conflicts;
  double ld_instructions, hw_ld_wavefronts, hw_ld_conflicts, sass_ld_wavefronts;
  double st_instructions, hw_st_wavefronts, hw_st_conflicts, sass_st_wavefronts;
};
constexpr SharedLaunch kH100SharedSass[] = {
    {"tiled", 16, 4294967296, 4294967296, 0, 268435456, 268435456, 0,
     2684354560, 3222196225, 970753, 3221225472, 268435456, 285528845, 17093389, 268435456},
    {"tiled", 32, 4294967296, 4294967296, 0, 134217728, 134217728, 0,
     2684354560, 3221930907, 705435, 3221225472, 134217728, 148523354, 14305626, 134217728},
    {"coarsened", 16, 2147483648, 2147483648, 0, 134217728, 201326592, 67108864,
     1342177280, 1610928265, 315529, 1610612736, 134217728, 210913777, 76696049, 201326592},
    {"coarsened", 32, 2147483648, 2147483648, 0, 67108864, 67108864, 0,
     1342177280, 1610612736, 0, 1610612736, 67108864, 80316625, 13207761, 67108864},
    {"tiled-transposed", 16, 4294967296, 19327352832, 15032385536, 268435456, 1207959552, 939524096,
     1073741824, 9664654452, 6443428980, 9663676416, 268435456, 1227291146, 958855690, 1207959552},
    {"tiled-transposed", 32, 4294967296, 70866960384, 66571993088, 134217728, 2214592512, 2080374784,
     1073741824, 18254413971, 15033188499, 18253611008, 134217728, 2232292751, 2098075023, 2214592512},
    {"tiled-padded", 16, 4294967296, 4294967296, 0, 268435456, 402653184, 134217728,
     2684354560, 3222337283, 1111811, 3221225472, 268435456, 415545069, 147109613, 402653184},
    {"tiled-padded", 32, 4294967296, 4294967296, 0, 134217728, 134217728, 0,
     2684354560, 3221935630, 710158, 3221225472, 134217728, 148551777, 14334049, 134217728},
};

NcuRow shared_sass_row(const SharedLaunch& l) {
  NcuRow r;
  r.kernel = l.kernel;
  r.tile = l.tile;
  r.n = 4096;
  r.trace = {{"shared_load_requests", l.trace_ld_requests},  {"shared_load_wavefronts", l.trace_ld_wavefronts},
             {"shared_bank_conflicts_load", l.trace_ld_conflicts}, {"shared_store_requests", l.trace_st_requests},
             {"shared_store_wavefronts", l.trace_st_wavefronts}, {"shared_bank_conflicts_store", l.trace_st_conflicts}};
  r.hardware = {{"smsp__sass_inst_executed_op_shared_ld.sum", l.ld_instructions},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", l.hw_ld_wavefronts},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", l.hw_ld_conflicts},
                {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", l.sass_ld_wavefronts},
                {"smsp__sass_inst_executed_op_shared_st.sum", l.st_instructions},
                {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", l.hw_st_wavefronts},
                {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", l.hw_st_conflicts},
                {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", l.sass_st_wavefronts}};
  return r;
}

TEST(NcuTable, AsksNcuForTheSharedWavefrontsPerInstruction) {
  const std::vector<std::string> m = ncu_metrics();
  for (const char* x : {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
                        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"}) {
    EXPECT_EQ(std::count(m.begin(), m.end(), x), 1) << x;
  }
}

// The store side, every launch: ncu's per-instruction wavefronts are the
// trace's, and the hardware counter's excess over them is exactly its excess
// of conflicts over the trace's. The table says so as measured, and shows
// "equal" in the per-instruction column.
TEST(NcuTable, SharedStoreExcessLiesOutsideTheInstructionsOnTheH100) {
  for (const SharedLaunch& l : kH100SharedSass) {
    SCOPED_TRACE(std::string(l.kernel) + " TILE " + std::to_string(l.tile));
    const std::vector<CounterComparison> c = compare_row(shared_sass_row(l));
    const double outside = l.hw_st_wavefronts - l.sass_st_wavefronts;  // 17093389 for tiled/16
    ASSERT_GT(outside, 0);
    ASSERT_DOUBLE_EQ(outside, l.hw_st_conflicts - l.trace_st_conflicts);  // the data say so: the test's premise

    const CounterComparison w = find_pair(c, "shared_store_wavefronts");
    EXPECT_NE(w.agreement, Agreement::Equal);  // "close" for tiled-transposed TILE 32: 0.8 %
    EXPECT_DOUBLE_EQ(w.per_instruction, l.trace_st_wavefronts);
    EXPECT_EQ(w.per_instruction_agreement, Agreement::Equal);
    EXPECT_TRUE(w.explained) << w.why;
    EXPECT_EQ(w.why.rfind("measured: ", 0), 0u) << w.why;
    const std::string per = std::to_string(static_cast<long long>(l.trace_st_wavefronts)) + " wavefronts, the trace's";
    EXPECT_NE(w.why.find(per), std::string::npos) << w.why;
    EXPECT_NE(w.why.find(std::to_string(static_cast<long long>(outside)) + " wavefronts beyond it"), std::string::npos)
        << w.why;
    EXPECT_EQ(w.why.find("hypothesis"), std::string::npos) << w.why;

    const CounterComparison k = find_pair(c, "shared_bank_conflicts_store");
    EXPECT_NE(k.agreement, Agreement::Equal);
    EXPECT_DOUBLE_EQ(k.per_instruction, l.trace_st_conflicts);
    EXPECT_EQ(k.per_instruction_agreement, Agreement::Equal);
    EXPECT_TRUE(k.explained) << k.why;
    EXPECT_EQ(k.why.rfind("measured: ", 0), 0u) << k.why;
    EXPECT_EQ(k.why.find("hypothesis"), std::string::npos) << k.why;
    // Instructions equal: the SASS-level count leaves out coarsened's predicated-off `@P STS RZ`.
    EXPECT_EQ(find_pair(c, "shared_store_requests").agreement, Agreement::Equal);
  }
  // coarsened TILE 16: 210913777 - 201326592 = 9587185 wavefronts outside, 76696049 = 67108864 + 9587185 conflicts.
  const CounterComparison k = find_pair(compare_row(shared_sass_row(kH100SharedSass[2])), "shared_bank_conflicts_store");
  EXPECT_NE(k.why.find("201326592 wavefronts, the trace's"), std::string::npos) << k.why;
  EXPECT_NE(k.why.find("76696049 = the trace's 67108864 + 9587185"), std::string::npos) << k.why;
}

// The load side: where the trace sees no conflict (tiled, tiled-padded,
// coarsened), the hardware's conflicts are exactly its wavefronts beyond the
// per-instruction ones, although the merged LDS.128 make fewer wavefronts
// than the trace's 4-byte reads. tiled-transposed's conflicts are counted
// over other instructions (LDS.128 against the trace's 4-byte reads): that
// row keeps its reason, and per instruction it differs too.
TEST(NcuTable, SharedLoadConflictsTheTraceLacksLieOutsideTheInstructions) {
  for (const SharedLaunch& l : kH100SharedSass) {
    SCOPED_TRACE(std::string(l.kernel) + " TILE " + std::to_string(l.tile));
    const std::vector<CounterComparison> c = compare_row(shared_sass_row(l));
    const CounterComparison k = find_pair(c, "shared_bank_conflicts_load");
    const CounterComparison w = find_pair(c, "shared_load_wavefronts");
    EXPECT_EQ(w.agreement, Agreement::Differs);  // merged into LDS.128 everywhere
    EXPECT_DOUBLE_EQ(w.per_instruction, l.sass_ld_wavefronts);
    EXPECT_EQ(w.per_instruction_agreement, Agreement::Differs);
    EXPECT_NE(w.why.find("wider accesses"), std::string::npos) << w.why;
    if (l.hw_ld_wavefronts > l.sass_ld_wavefronts) {  // all but coarsened TILE 32
      const std::string outside = std::to_string(static_cast<long long>(l.hw_ld_wavefronts - l.sass_ld_wavefronts));
      EXPECT_NE(w.why.find("counter's " + outside + " more wavefronts come from outside"), std::string::npos) << w.why;
    } else {
      EXPECT_EQ(w.why.find("outside"), std::string::npos) << w.why;
    }
    EXPECT_TRUE(k.explained) << k.why;
    if (std::string(l.kernel) == "tiled-transposed") {
      EXPECT_NE(k.why.find("128-bit"), std::string::npos) << k.why;
      EXPECT_EQ(k.per_instruction_agreement, Agreement::Differs);
      // Per LDS.128, once the wavefronts outside the instructions (978036 at TILE 16) are taken off: 9 wavefronts
      // and 6 conflicts at TILE 16, 17 and 14 at TILE 32 (the hardware's non-conflict wavefronts: 3 per LDS.128).
      EXPECT_DOUBLE_EQ(k.per_instruction, (l.tile == 16 ? 6.0 : 14.0) * l.ld_instructions);
      EXPECT_DOUBLE_EQ(w.per_instruction, (l.tile == 16 ? 9.0 : 17.0) * l.ld_instructions);
      continue;
    }
    EXPECT_DOUBLE_EQ(k.per_instruction, 0);
    EXPECT_EQ(k.per_instruction_agreement, Agreement::Equal);
    if (l.hw_ld_conflicts == 0) {  // coarsened TILE 32: none on either side
      EXPECT_EQ(k.agreement, Agreement::Equal);
      continue;
    }
    EXPECT_EQ(k.why.rfind("measured: ", 0), 0u) << k.why;
    EXPECT_NE(k.why.find("(the trace, counting 4-byte accesses: " +
                         std::to_string(static_cast<long long>(l.trace_ld_wavefronts)) + ")"),
              std::string::npos)
        << k.why;
  }
  const CounterComparison k = find_pair(compare_row(shared_sass_row(kH100SharedSass[0])), "shared_bank_conflicts_load");
  EXPECT_NE(k.why.find("3221225472 wavefronts"), std::string::npos) << k.why;
  EXPECT_NE(k.why.find("970753 = the trace's 0 + 970753"), std::string::npos) << k.why;  // 3222196225 - 3221225472
}

TEST(NcuTable, PerInstructionCountsThatDoNotFitAreUnexplained) {
  // One wavefront more per instruction than the trace's: the excess is no longer all outside.
  NcuRow more = shared_sass_row(kH100SharedSass[0]);
  more.hardware["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] += 1;
  const CounterComparison w = find_pair(compare_row(more), "shared_store_wavefronts");
  EXPECT_EQ(w.per_instruction_agreement, Agreement::Close);
  EXPECT_FALSE(w.explained);
  EXPECT_EQ(w.why.rfind("unexplained", 0), 0u) << w.why;
  EXPECT_FALSE(find_pair(compare_row(more), "shared_bank_conflicts_store").explained);
  // A conflict fewer than the wavefronts outside the instructions.
  NcuRow fewer = shared_sass_row(kH100SharedSass[2]);
  fewer.hardware["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] -= 1;
  const CounterComparison k = find_pair(compare_row(fewer), "shared_bank_conflicts_store");
  EXPECT_EQ(k.per_instruction_agreement, Agreement::Close);  // 67108863 against 67108864
  EXPECT_FALSE(k.explained);
  EXPECT_FALSE(find_pair(compare_row(fewer), "shared_store_wavefronts").explained);
  // Loads: conflicts the trace lacks, but fewer than the wavefronts outside the instructions.
  NcuRow loads = shared_sass_row(kH100SharedSass[0]);
  loads.hardware["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] -= 100;
  EXPECT_EQ(find_pair(compare_row(loads), "shared_bank_conflicts_load").why.rfind("measured", 0), std::string::npos);
}

// A table profiled before the SASS-level wavefronts were asked for (or by an
// ncu that lacks them): the same rows keep their reasons, marked not measured,
// and the Markdown has no per-instruction column.
TEST(NcuTable, RowsWithoutPerInstructionCountsSayNotMeasured) {
  NcuRow r = shared_sass_row(kH100SharedSass[0]);
  r.hardware.erase("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  r.hardware.erase("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  const std::vector<CounterComparison> c = compare_row(r);
  for (const CounterComparison& x : c) {
    EXPECT_TRUE(std::isnan(x.per_instruction)) << x.pair->label;
    EXPECT_EQ(x.per_instruction_agreement, Agreement::Missing) << x.pair->label;
    EXPECT_TRUE(x.explained) << x.pair->label << ": " << x.why;
    EXPECT_EQ(x.why.find("measured: "), std::string::npos) << x.why;
  }
  const CounterComparison k = find_pair(c, "shared_bank_conflicts_store");
  EXPECT_NE(k.why.find("conflicts the trace does not see"), std::string::npos) << k.why;
  EXPECT_NE(k.why.find("not measured for this launch"), std::string::npos) << k.why;
  EXPECT_NE(find_pair(c, "shared_bank_conflicts_load").why.find("not measured for this launch"), std::string::npos);
  EXPECT_NE(find_pair(c, "shared_store_wavefronts").why.find("as many extra wavefronts as extra bank conflicts (17093389)"),
            std::string::npos);
  // coarsened TILE 16 has conflicts on both sides: the other rule, also not measured.
  NcuRow coarsened = shared_sass_row(kH100SharedSass[2]);
  coarsened.hardware.erase("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  EXPECT_NE(find_pair(compare_row(coarsened), "shared_bank_conflicts_store").why.find("more conflicts than the trace's "
                                                                                     "instructions make; not measured"),
            std::string::npos);

  NcuTable t;
  t.gpu = "NVIDIA H100 80GB HBM3";
  t.date = "2026-11-25T00:00:00Z";
  t.rows.push_back(r);
  EXPECT_EQ(ncu_table_markdown(t).find("ncu per instruction"), std::string::npos);
  EXPECT_NE(ncu_table_markdown(t).find("| tiled | 16 | 4096 | shared store wavefronts | 268435456 | 285528845 | differs | as many"),
            std::string::npos);
}

// With them, each row has the per-instruction count and its agreement; other pairs show "-".
TEST(NcuTable, MarkdownShowsThePerInstructionCountWhereMeasured) {
  NcuTable t;
  t.gpu = "NVIDIA H100 80GB HBM3";
  t.date = "2026-11-25T00:00:00Z";
  t.rows.push_back(shared_sass_row(kH100SharedSass[0]));
  t.rows.push_back(transposed_row());  // an older row, no SASS-level metrics, in the same table
  const NcuTable back = ncu_table_from_json(nlohmann::json::parse(ncu_table_to_json(t).dump()));
  const std::string md = ncu_table_markdown(back);
  EXPECT_NE(md.find("| agreement | ncu per instruction | agreement per instruction | why |"), std::string::npos);
  EXPECT_NE(md.find("| tiled | 16 | 4096 | shared store wavefronts | 268435456 | 285528845 | differs | 268435456 | equal | "
                    "measured: "),
            std::string::npos);
  EXPECT_NE(md.find("| tiled | 16 | 4096 | shared store bank conflicts | 0 | 17093389 | differs | 0 | equal | measured: "),
            std::string::npos);
  EXPECT_NE(md.find("| tiled | 16 | 4096 | global load requests | - | - | missing | - | - | ncu did not measure it |"),
            std::string::npos);
  EXPECT_NE(md.find("| tiled-transposed | 32 | 64 | shared load bank conflicts | 253952 | 122880 | differs | - | - | "),
            std::string::npos);
}

// An ldmatrix or cp.async the launch used needs its own per-instruction
// wavefronts: without them the side's count is not measured.
TEST(NcuTable, PerInstructionCountsNeedEveryInstructionKindTheLaunchUsed) {
  NcuRow r = shared_sass_row(kH100SharedSass[0]);
  r.hardware["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"] = 1024;
  r.hardware["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"] = 0;
  EXPECT_TRUE(std::isnan(find_pair(compare_row(r), "shared_load_wavefronts").per_instruction));
  EXPECT_FALSE(std::isnan(find_pair(compare_row(r), "shared_store_wavefronts").per_instruction));
  r.hardware["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"] = 1024;
  EXPECT_DOUBLE_EQ(find_pair(compare_row(r), "shared_load_wavefronts").per_instruction, 3221225472.0 + 1024);
  EXPECT_DOUBLE_EQ(find_pair(compare_row(r), "shared_bank_conflicts_load").per_instruction, 0);
  // A kind with zeros everywhere (no ldmatrix in the launch) needs nothing.
  NcuRow zeros = shared_sass_row(kH100SharedSass[0]);
  zeros.hardware["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"] = 0;
  EXPECT_DOUBLE_EQ(find_pair(compare_row(zeros), "shared_load_wavefronts").per_instruction, 3221225472.0);
}

TEST(NcuTable, ARungsRowHasNoTileAndAnswersForAnyTile) {
  NcuTable t;
  t.gpu = "NVIDIA H100 80GB HBM3";
  t.date = "2026-11-23T00:00:00Z";
  t.rows.push_back(double_buffer_row());
  t.rows.back().edges = true;
  const NcuTable back = ncu_table_from_json(nlohmann::json::parse(ncu_table_to_json(t).dump()));
  ASSERT_NE(back.find("double-buffer", 16, 4096), nullptr);  // a trace's launch says TILE = its k-step
  EXPECT_NE(back.find("double-buffer", 0, 4096), nullptr);
  EXPECT_TRUE(back.rows[0].edges);
  EXPECT_EQ(back.find("double-buffer", 16, 64), nullptr);
  const std::string md = ncu_table_markdown(back);
  EXPECT_NE(md.find("| double-buffer | - | 4096 | global load requests | 20971520 | 20971520 | equal |"), std::string::npos);
  // The count of unexplained rows in the header follows the rows: one, where a plain STS beside the copies
  // leaves ncu's 0 shared-store wavefronts without a reason.
  NcuTable with_sts = back;
  with_sts.rows[0].hardware["smsp__sass_inst_executed_op_shared_st.sum"] = 1024;
  int unexplained = 0;
  for (const CounterComparison& c : compare_row(with_sts.rows[0])) unexplained += !c.explained;
  EXPECT_GE(unexplained, 1);
  EXPECT_NE(ncu_table_markdown(with_sts).find("Differences no rule explains: " + std::to_string(unexplained) + " "),
            std::string::npos);
  // A table written before rows said whether they had edges still loads.
  nlohmann::json old = ncu_table_to_json(t);
  old["rows"][0].erase("edges");
  EXPECT_FALSE(ncu_table_from_json(old).rows[0].edges);
}

}  // namespace
}  // namespace ts
