// sass_test.cpp — nvdisasm's listing read into instructions (tracer/sass.h),
// and the assembler's lines from them: each event's record PC finds its
// instruction, whose source line (or, without line info, whose place in the
// listing) becomes the event's line.
#include <gtest/gtest.h>

#include "tracer/assemble.h"
#include "tracer/sass.h"

namespace ts::tracer {
namespace {

// The shape of `nvdisasm -g -c` output: two functions, line comments before
// the instructions they cover, a label, a predicated branch; the second
// function's instructions must not leak into the first's.
const char* const kListing = R"(	.target	sm_90

//--------------------- .text._Z3twov --------------------------
	.section	.text._Z3twov,"ax",@progbits
_Z3twov:
.text._Z3twov:
	//## File "/src/two.cu", line 3
        /*0000*/                   EXIT ;
//--------------------- .text._Z4scalePfi --------------------------
	.section	.text._Z4scalePfi,"ax",@progbits
        .global         _Z4scalePfi
_Z4scalePfi:
.text._Z4scalePfi:
	//## File "/src/scale.cu", line 12
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/src/scale.cu", line 14 inlined at "/src/scale.cu", line 20
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/               @P0 BRA `(.L_x_0) ;
.L_x_0:
	//## File "/src/helpers.h", line 5
        /*0030*/                   LDG.E R3, desc[UR4][R2.64] ;
	//## File "/src/scale.cu", line 16
        /*0040*/                   STG.E desc[UR4][R2.64], R3 ;        /* 0x0000000302007986 */
                                                                      /* 0x000fe2000c101904 */
        /*0050*/                   EXIT ;
//--------------------- .nv.shared._Z4scalePfi --------------------------
)";

TEST(Sass, TheFunctionsInstructionsWithTheirLines) {
  const auto sass = parse_nvdisasm(kListing, "_Z4scalePfi");
  ASSERT_EQ(sass.size(), 6u);
  EXPECT_EQ(sass[0].offset, 0u);
  EXPECT_EQ(sass[0].text, "LDC R1, c[0x0][0x28]");
  EXPECT_EQ(sass[0].file, "/src/scale.cu");
  EXPECT_EQ(sass[0].line, 12u);
  EXPECT_EQ(sass[1].line, 14u) << "the line itself, not the one it is inlined at";
  EXPECT_EQ(sass[2].text, "@P0 BRA `(.L_x_0)");
  EXPECT_EQ(sass[2].line, 14u) << "a line covers the instructions after it";
  EXPECT_EQ(sass[3].file, "/src/helpers.h");
  EXPECT_EQ(sass[4].offset, 0x40u);
  EXPECT_EQ(sass[4].text, "STG.E desc[UR4][R2.64], R3") << "cuobjdump's encodings dropped";
  EXPECT_EQ(sass[5].offset, 0x50u);
  EXPECT_EQ(sass_line(sass[4]), "/*0040*/ STG.E desc[UR4][R2.64], R3 ;  // line 16");
  EXPECT_EQ(instruction_at(sass, 0x30), 3u);
  EXPECT_FALSE(instruction_at(sass, 0x34).has_value());
  EXPECT_FALSE(instruction_at(sass, 0x60).has_value());

  const auto two = parse_nvdisasm(kListing, "_Z3twov");
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].text, "EXIT");
  EXPECT_TRUE(parse_nvdisasm(kListing, "_Z7missingv").empty());
  EXPECT_TRUE(parse_nvdisasm("", "_Z4scalePfi").empty());
  EXPECT_TRUE(parse_nvdisasm("/*zz*/ X ;\n/*0010 LDG\n//## File \"a\", line\n", "_Z4scalePfi").empty());
}

// One thread's global load and store (the kernel scale above), its records at
// PCs function_pc + 0x30 and + 0x40.
RawLaunch one_thread_launch() {
  RawLaunch raw;
  raw.traced = true;
  raw.launches = {"_Z4scalePfi"};
  raw.kernel = "_Z4scalePfi";
  raw.function_pc = 0x7f0000001000;
  raw.function_size = 0x60;
  for (std::uint64_t i = 0; i < 3; ++i) {
    raw.allocations.push_back({0x1000000ull * (i + 1), 16, ""});
    raw.snapshots.push_back({static_cast<std::uint32_t>(i), i == 2, std::vector<std::uint8_t>(16)});
  }
  RawRecord load{}, store{}, elsewhere{};
  load.kind = store.kind = elsewhere.kind = kRecordGlobal;
  load.address = 0x1000000, load.bytes = 4, load.pc = raw.function_pc + 0x30;
  store.address = 0x3000000, store.bytes = 4, store.access = kAccessStore, store.pc = raw.function_pc + 0x40;
  elsewhere.address = 0x2000000, elsewhere.bytes = 4, elsewhere.pc = 0x10;  // a PC outside the function: no line
  raw.records = {load, store, elsewhere};
  raw.records_needed = raw.capacity = raw.records.size();
  return raw;
}

TEST(Sass, EachEventsLineComesFromItsRecordsPc) {
  AssembleOptions o;
  o.m = o.n = o.k = 2;
  o.sass = parse_nvdisasm(kListing, "_Z4scalePfi");
  const Trace t = assemble_trace(one_thread_launch(), o);
  const TracerInfo& info = *t.launch.tracer;
  EXPECT_EQ(info.source_file, "/src/scale.cu") << "the file most instructions come from";
  ASSERT_EQ(info.sass.size(), 6u);
  EXPECT_EQ(info.sass[3], "/*0030*/ LDG.E R3, desc[UR4][R2.64] ;  // line 5");
  ASSERT_EQ(t.lines.size(), 3u);
  EXPECT_EQ(t.lines[0], 0) << "its line is in another file (helpers.h)";
  EXPECT_EQ(t.lines[1], 16);
  EXPECT_EQ(t.lines[2], 0) << "a PC outside the function";

  // Without line info the lines number the listing's instructions, from 1.
  for (SassInstruction& s : o.sass) s.file.clear(), s.line = 0;
  const Trace bare = assemble_trace(one_thread_launch(), o);
  EXPECT_EQ(bare.launch.tracer->source_file, "");
  EXPECT_EQ(bare.lines, (std::vector<std::uint16_t>{4, 5, 0}));

  // Without a listing: no lines at all.
  o.sass.clear();
  EXPECT_TRUE(assemble_trace(one_thread_launch(), o).lines.empty());
}

}  // namespace
}  // namespace ts::tracer
