// Reading ncu's CSV and cuobjdump's SASS, and the trace-vs-hardware table.
#include <gtest/gtest.h>

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
  for (const CounterPair& p : compared_counters())
    EXPECT_NE(std::find(m.begin(), m.end(), std::string(p.ncu_metric)), m.end()) << p.ncu_metric;
}

}  // namespace
}  // namespace ts
