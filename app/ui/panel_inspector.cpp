// panel_inspector.cpp — the selected cell of C: who computes it, what it
// reads at this step, and its running partial sum iteration by iteration up
// to the value the kernel stored.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/ui/app_state.h"
#include "app/ui/palette.h"
#include "app/ui/panel_registry.h"

namespace ts::ui {
namespace {

struct PanelInspector : Panel {
  PanelInspector() : Panel("Selected cell", {PanelSlot::Right, 1.4f, true, true}) {}

  void Draw(AppState& app) override {
    const PanelWindow window(*this);
    if (!window) return;
    const LoadedTrace* lt = app.trace();
    const std::optional<CellHighlight>& hl = app.highlight();
    if (!lt || !hl) {
      ImGui::TextWrapped(
          "Click a cell of C to see which thread computes it, what it reads at each step, and its "
          "running sum.");
      return;
    }
    const CellHighlight& h = *hl;
    const Trace& t = lt->trace;
    // Wrapped everywhere: a narrow column (presentation mode) must not cut a line mid-word.
    ImGui::TextWrapped("C[%u][%u]: block (%u, %u), thread (%u, %u), warp %u", h.cell.row, h.cell.col, h.coord.block.x,
                h.coord.block.y, h.coord.thread.x, h.coord.thread.y, h.coord.warp);
    if (h.thread_cells.size() > 1) ImGui::TextWrapped("this thread computes %zu cells of C", h.thread_cells.size());

    ImGui::Separator();
    const ReplayStep& s = h.step;
    switch (s.phase) {
      case Phase::Load:
      case Phase::Barrier: {
        const bool pipelined = t.launch.iteration_rule.global_by_k != 0;
        ImGui::TextWrapped(s.phase == Phase::Load
                               ? (pipelined ? "Iteration t = %u: the tiles of A and B it reads were copied into shared "
                                              "memory by cp.async, issued ahead of time (while an earlier tile was "
                                              "read). This thread's part:"
                                            : "Iteration t = %u: the block copies a tile of A and a tile of B into "
                                              "shared memory, each thread its part. This thread copies:")
                               : "Iteration t = %u: __syncthreads(): every thread waits until both "
                                 "tiles are complete. This thread copied:",
                           s.iteration);
        for (const CopiedWord& w : h.copied) {
          const char* how = w.async ? (w.width == Width::B16 ? "  (cp.async, 16 B)" : "  (cp.async)")
                                    : (w.width == Width::B16 ? "  (float4)" : "");
          const std::string region = t.launch.memory_name(t.launch.region_id(w.region));
          if (w.padding)
            ImGui::BulletText("%s slot %u <- 0 (outside the matrices: padding)%s", region.c_str(), w.slot, how);
          else
            ImGui::BulletText("%s[%u][%u] = %g -> %s slot %u%s", role_name(w.global).data(), w.element.row, w.element.col,
                              w.value, region.c_str(), w.slot, how);
        }
        break;
      }
      case Phase::Mac: {
        ImGui::TextWrapped("Iteration t = %u, k = %u: multiply-accumulate out of %s.", s.iteration, s.k,
                           h.tensor_cores       ? "mma fragments loaded from shared memory"
                           : h.as_reads.empty()     ? "global memory"
                                                    : "shared memory");
        if (h.a_now && h.b_now) {
          const float a = t.value_at(BufferRole::A, h.a_now->row, h.a_now->col);
          const float b = t.value_at(BufferRole::B, h.b_now->row, h.b_now->col);
          ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.93f, 0.3f, 1.0f));
          ImGui::TextWrapped("acc += A[%u][%u] * B[%u][%u]", h.a_now->row, h.a_now->col, h.b_now->row, h.b_now->col);
          ImGui::TextWrapped("     = %g + %g * %g = %g", h.partial_before, a, b, h.partial);
          ImGui::PopStyleColor();
          if (h.as_now && h.bs_now)
            ImGui::TextWrapped("(%s slot %u, %s slot %u)", t.launch.memory_name(t.launch.region_id(h.as_now->region)).c_str(),
                               h.as_now->slot, t.launch.memory_name(t.launch.region_id(h.bs_now->region)).c_str(),
                               h.bs_now->slot);
        } else {
          ImGui::TextWrapped("k is past K: the tile's padded zeros add nothing (acc = %g).", h.partial);
        }
        register_step(h);
        break;
      }
      case Phase::Sync:
        ImGui::TextWrapped(
            "Iteration t = %u: __syncthreads(): nobody overwrites the tiles until every thread has "
            "finished reading them.",
            s.iteration);
        break;
      case Phase::Store:
        ImGui::TextWrapped("The thread stores its sum: C[%u][%u] = %g.", h.cell.row, h.cell.col, h.stored);
        break;
    }

    ImGui::Separator();
    ImGui::TextWrapped("Running sum (%u of %d products)", h.terms_done, t.launch.k);
    if (ImGui::BeginTable("partials", 3,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY,
                          ImVec2(0, ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * 2))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("iteration");
      ImGui::TableSetupColumn("k's");
      ImGui::TableSetupColumn("sum after it");
      ImGui::TableHeadersRow();
      const std::uint32_t T = app.timeline().tile();
      ImGuiListClipper clipper;  // K can be large: draw only the visible rows
      clipper.Begin(static_cast<int>(h.partial_after_iteration.size()));
      while (clipper.Step()) {
        for (std::uint32_t i = static_cast<std::uint32_t>(clipper.DisplayStart);
             i < static_cast<std::uint32_t>(clipper.DisplayEnd); ++i) {
          const bool done = (i + 1) * T <= h.terms_done || h.terms_done == static_cast<std::uint32_t>(t.launch.k);
          const bool current = i == s.iteration && s.phase != Phase::Store;
          ImGui::TableNextRow();
          if (current)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0,
                                   IM_COL32(palette::kReads.r, palette::kReads.g, palette::kReads.b, 110));
          ImGui::TableNextColumn();
          ImGui::Text("%u", i);
          ImGui::TableNextColumn();
          ImGui::Text("%u..%u", i * T,
                      std::min<std::uint32_t>((i + 1) * T, static_cast<std::uint32_t>(t.launch.k)) - 1);
          ImGui::TableNextColumn();
          if (done)
            ImGui::Text("%g", h.partial_after_iteration[i]);
          else if (current)
            ImGui::Text("%g so far", h.partial);
          else
            ImGui::TextDisabled("-");
        }
      }
      // Keep the current iteration in view as the replay moves on.
      if (s.iteration != scrolled_to_ && clipper.ItemsHeight > 0) {
        // The current row at the bottom of the view, under the frozen header row.
        const float bottom = static_cast<float>(s.iteration + 2) * clipper.ItemsHeight;
        ImGui::SetScrollY(std::max(0.0f, bottom - ImGui::GetWindowHeight()));
        scrolled_to_ = s.iteration;
      }
      ImGui::EndTable();
    }
    ImGui::TextWrapped("stored by the kernel: %g", h.stored);
    if (h.partial_matches_stored) {
      ImGui::TextWrapped("recomputed sum matches it exactly%s", h.fused ? " (fused multiply-add)" : "");
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.5f, 0.4f, 1));
      // The tensor cores round their inputs to TF32 (10-bit mantissas); the recomputation is FP32.
      ImGui::TextWrapped(h.tensor_cores ? "recomputed in FP32, the sum differs: the tensor cores multiply TF32-rounded "
                                          "inputs"
                                        : "recomputed sum differs in the last bits (FMA contraction)");
      ImGui::PopStyleColor();
    }
  }

  // A thread with a register tile: what it moves from shared memory into
  // registers at this k, and the outer product those values feed.
  static void register_step(const CellHighlight& h) {
    if (h.thread_cells.size() < 2 || h.registers_now.empty()) return;
    std::size_t as = 0, bs = 0, accesses = 0, vectors = 0, fragments = 0;
    for (const RegisterRead& r : h.registers_now) {
      as += r.global == BufferRole::A;
      bs += r.global == BufferRole::B;
      fragments += r.fragment;
      if (r.access_start) ++accesses, vectors += r.width != Width::B4;
    }
    ImGui::Spacing();
    if (fragments > 0) {
      ImGui::TextWrapped("Its warp multiplies with mma.sync m16n8k8 for k = %u..%u: this lane loads %zu A fragment "
                         "registers and %zu B fragment registers from shared memory (%zu accesses), part of the 16x8 "
                         "and 8x8 operands the warp's 32 lanes hold together; its 4 accumulators per mma are cells "
                         "of its %zu.",
                         h.step.k / h.k_per_read_group * h.k_per_read_group,
                         h.step.k / h.k_per_read_group * h.k_per_read_group + h.k_per_read_group - 1, as, bs, accesses,
                         h.thread_cells.size());
      return;
    }
    ImGui::TextWrapped("Its thread keeps %zu cells of C in registers. At this k it reads %zu values of A and %zu of B "
                       "into registers (%zu shared reads, %zu of them vector) and adds their outer product: %zu "
                       "multiply-adds from %zu shared values.",
                       h.thread_cells.size(), as, bs, accesses, vectors, as * bs, as + bs);
  }

  std::uint32_t scrolled_to_ = ~0u;  // the iteration the running-sum table was last scrolled to
};

}  // namespace
}  // namespace ts::ui

TS_DEFINE_PANEL(inspector, ts::ui::PanelInspector)
