// kernel_resources_data.cpp — writes this build's ptxas table as the shipped
// data that builds without the CUDA Toolkit compile in:
//   cmake --build build --target kernel-resources-data
// (runs `kernel_resources_data kernels/kernel_resources.csv`). The date is
// today's, in UTC; the compiler is the one this build used.
#include <cstdio>
#include <ctime>
#include <fstream>

#include "kernels/kernel_resources.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kernel_resources_data OUTPUT.csv\n");
    return 2;
  }
  ts::ResourceTable table = ts::build_resource_table();
  if (table.rows.empty()) {
    std::fprintf(stderr, "kernel_resources_data: this build has no ptxas table (built without CUDA)\n");
    return 1;
  }
  const std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  table.taken = date;
  const std::string text = ts::resource_csv(table);
  // Checked before it is written: what is written must read back as this table.
  const ts::ResourceTable back = ts::parse_resource_csv(text);
  if (back.rows.size() != table.rows.size()) {
    std::fprintf(stderr, "kernel_resources_data: the CSV does not read back\n");
    return 1;
  }
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "kernel_resources_data: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("kernel_resources_data: %zu rows (%s) written to %s\n", table.rows.size(), table.compiler.c_str(), argv[1]);
  return 0;
}
