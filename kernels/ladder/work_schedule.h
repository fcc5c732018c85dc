// work_schedule.h — who does which k-tiles of which tile of C, for the
// ladder's persistent kernels (tf32-wgmma-ws, and fp32-best's stream-k):
// whole tiles (data-parallel), tiles shared out by k-tile (stream-k), or
// every tile cut into equal pieces (split-k). Plain constexpr arithmetic,
// compiled by nvcc for the kernels and by g++ for the host's rules and
// tests/kernels/tf32_wgmma_ws_layout_test.cpp.
#pragma once

#if defined(__CUDACC__)
#define TS_WS_HD __host__ __device__
#else
#define TS_WS_HD
#endif

namespace ts::ladder::ws {

// The tile of C the cluster's `unit`-th piece of work covers, in units of
// cluster tiles (CLUSTER_M x CLUSTER_N block tiles): consecutive units walk
// down `group_m` unit rows before moving one unit column right, so the
// clusters resident at once share rows of A and columns of B in L2.
TS_WS_HD constexpr void unit_position(int unit, int units_m, int units_n, int group_m, int& um, int& un) {
  const int per_group = group_m * units_n;
  const int first = (unit / per_group) * group_m;
  const int rows = units_m - first < group_m ? units_m - first : group_m;
  um = first + (unit % per_group) % rows;
  un = (unit % per_group) / rows;
}

// ---- who does which k-tiles of which unit: data-parallel, stream-k, split-k ----
//
// A launch has `units` units of work (cluster tiles), each of `k_tiles`
// k-tiles of 32, and `clusters` clusters resident at once. Data-parallel:
// cluster b does units b, b + clusters, ... whole. Stream-k (sk_units > 0):
// the first sk_units units are shared out by k-tile, an equal run of
// sk_units * k_tiles k-tile steps per cluster (cluster b: steps
// sk_begin(b) .. sk_begin(b + 1) - 1, step i being k-tile i % k_tiles of
// unit i / k_tiles), and the rest are whole, data-parallel, after them. The
// host picks sk_units so that every cluster ends at about the same time
// (stream_k_units): the last partial round of units and one full round
// before it, where the units do not fill whole rounds of the clusters.
//
// Split-k (splits > 1, sk_units 0): every unit is cut into `splits` pieces
// of `chunk` k-tiles, units * splits items walked data-parallel (item w:
// unit w / splits, piece w % splits); each piece stores its sums to its own
// copy of C in a workspace, and a second kernel adds the copies. Where C is
// small and k long, this spreads the adding over the whole GPU, where
// stream-k's finisher would add every piece of a unit alone.
//
// Stream-k: where a unit is cut, the piece that starts at k-tile 0 finishes
// it: its cluster adds the partial sums the later pieces left in their CTAs'
// slots of a workspace (each waits for the piece's flag) and stores C. Every other
// piece is the first piece of its cluster's run (a run starts inside a unit
// only at its beginning), so a CTA leaves at most one partial, and no piece
// waits for another that waits: the finisher's wait ends as soon as the later
// clusters have done their first piece.
//
// The tail split (tail_schedule; sk_last, sk_clusters): the last partial
// round's units are the shared ones, walked after every cluster's whole
// units, and only the first sk_clusters clusters share them, a whole number
// of clusters a unit: each unit is cut into the same pieces (piece j of
// every unit covers the same k-tiles), so the clusters that run the pieces
// at once read the same k-range of A and B, as a data-parallel round does,
// where stream-k's runs, each starting at its own k-tile, read apart (L2
// reuse lost: run 40 in docs/ladder-notes.md). The rules above hold: a
// partial is the first piece of its cluster's run (after its whole units,
// which wait for nothing), so no piece waits for one that waits.
struct WorkSchedule {
  int units = 0, k_tiles = 0, clusters = 1;
  int sk_units = 0;  // units shared out by k-tile (the first, or with sk_last the last); 0: data-parallel only
  int splits = 1, chunk = 0;  // split-k: pieces per unit, k-tiles per piece (splits = ceil(k_tiles / chunk))
  int sk_clusters = 0;   // the clusters that share the stream-k units (the first ones); 0: all of them
  bool sk_last = false;  // the stream-k units are the last sk_units, walked after the whole ones

  TS_WS_HD constexpr long long sk_steps() const { return (long long)sk_units * k_tiles; }
  TS_WS_HD constexpr int sharing() const { return sk_clusters > 0 ? sk_clusters : clusters; }
  TS_WS_HD constexpr long long sk_begin(int cluster) const {
    return sk_steps() * (cluster < sharing() ? cluster : sharing()) / sharing();
  }
  TS_WS_HD constexpr int sk_first_unit() const { return sk_last ? units - sk_units : 0; }
  TS_WS_HD constexpr int whole_begin() const { return sk_last ? 0 : sk_units; }
  TS_WS_HD constexpr int whole_end() const { return sk_last ? units - sk_units : units; }
  // Does cluster c's run start before the end of `unit`? (The finisher of a
  // unit looks at the clusters after its own while this holds.)
  TS_WS_HD constexpr bool starts_before_end(int c, int unit) const {
    return c < clusters && sk_begin(c) < (long long)(unit - sk_first_unit() + 1) * k_tiles;
  }
  // Does cluster c leave a partial of `unit` (a run that is not empty and
  // starts inside the unit, past k-tile 0)?
  TS_WS_HD constexpr bool leaves_partial(int c, int unit) const {
    const long long b = sk_begin(c);
    return starts_before_end(c, unit) && b < sk_begin(c + 1) && b > (long long)(unit - sk_first_unit()) * k_tiles;
  }
};

// A data-parallel, stream-k or tail-split schedule's pieces for `cluster`
// (splits must be 1), in order, one at a time: its stream-k run (cut at
// units' ends), then its whole units; with sk_last, its whole units, then
// its run. For a kernel that runs its piece's code at one call site
// (fp32-best's stream-k), and for for_each_piece.
struct PieceWalk {
  const WorkSchedule& s;  // outlives the walk (a kernel parameter: read where it lies)
  long long i, end;       // what is left of the cluster's stream-k run
  int whole;              // its next whole unit
  TS_WS_HD constexpr PieceWalk(const WorkSchedule& schedule, int cluster)
      : s(schedule), i(schedule.sk_begin(cluster)), end(schedule.sk_begin(cluster + 1)),
        whole(schedule.whole_begin() + cluster) {}
  TS_WS_HD constexpr bool next(int& unit, int& k_begin, int& k_end) {
    if (i < end && !(s.sk_last && whole < s.whole_end())) {
      unit = s.sk_first_unit() + int(i / s.k_tiles);
      k_begin = int(i % s.k_tiles);
      k_end = (end - i) < (long long)(s.k_tiles - k_begin) ? k_begin + int(end - i) : s.k_tiles;
      i += k_end - k_begin;
      return true;
    }
    if (whole >= s.whole_end()) return false;
    unit = whole;
    k_begin = 0;
    k_end = s.k_tiles;
    whole += s.clusters;
    return true;
  }
};

// Calls piece(unit, k_begin, k_end) for each piece of work cluster `cluster`
// does, in order: split-k's pieces, or PieceWalk's. kPieces false: whole
// units only (a data-parallel schedule), with none of the pieces'
// arithmetic in the caller's code.
template <bool kPieces = true, class F>
TS_WS_HD void for_each_piece(const WorkSchedule& s, int cluster, F&& piece) {
  if constexpr (!kPieces) {
    for (int unit = cluster; unit < s.units; unit += s.clusters) piece(unit, 0, s.k_tiles);
    return;
  }
  if (s.splits > 1) {
    for (long long w = cluster; w < (long long)s.units * s.splits; w += s.clusters) {
      const int unit = int(w / s.splits), kb = int(w % s.splits) * s.chunk;
      piece(unit, kb, kb + s.chunk < s.k_tiles ? kb + s.chunk : s.k_tiles);
    }
    return;
  }
  PieceWalk walk(s, cluster);
  int unit, k_begin, k_end;
  while (walk.next(unit, k_begin, k_end)) piece(unit, k_begin, k_end);
}

// The units stream-k shares out for `units` units on `clusters` clusters:
// none where the units fill whole rounds; else the last, partial round, and
// one full round before it where there is one (so that the pieces are long).
TS_WS_HD constexpr int stream_k_units(int units, int clusters) {
  if (clusters < 1) return 0;
  const int rest = units % clusters;
  if (rest == 0) return 0;
  return units < clusters ? units : rest + clusters;
}

// Stream-k's schedule for `units` units on `clusters` clusters: the units
// stream_k_units names shared out by k-tile, the rest whole.
TS_WS_HD constexpr WorkSchedule stream_k_schedule(int units, int k_tiles, int clusters) {
  return {units, k_tiles, clusters, stream_k_units(units, clusters)};
}

// The numbers of pieces the kernels' tail split is run with (tf32-wgmma-ws's
// rule weighs each; fp32_tune times each for fp32-best).
inline constexpr int kTailPieces[] = {2, 3, 4, 6, 8, 12, 16};

// The tail split's schedule: where the units leave a partial last round of
// `rest` units, those are cut into `pieces` each (fewer where the clusters
// or the k-tiles are too few: at most clusters / rest, and a k-tile a
// piece), walked after the whole rounds; clusters is cut to the pieces where
// there are no whole rounds. Data-parallel (sk_units 0) where the rounds are
// whole or fewer than 2 pieces a unit fit.
TS_WS_HD constexpr WorkSchedule tail_schedule(int units, int k_tiles, int clusters, int pieces) {
  WorkSchedule s{units, k_tiles, clusters};
  if (clusters < 1 || units < 1) return s;
  const int rest = units % clusters;
  int p = rest > 0 ? clusters / rest : 0;
  if (p > pieces) p = pieces;
  if (p > k_tiles) p = k_tiles;
  if (p < 2) {
    if (units < clusters) s.clusters = units;
    return s;
  }
  s.sk_units = rest;
  s.sk_clusters = rest * p;
  s.sk_last = true;
  if (units < clusters) s.clusters = s.sk_clusters;
  return s;
}

// Split-k's schedule for `splits` pieces a unit (fewer where k is short:
// every piece has at least one k-tile).
TS_WS_HD constexpr WorkSchedule split_k_schedule(int units, int k_tiles, int clusters, int splits) {
  const int chunk = (k_tiles + splits - 1) / splits;
  return {units, k_tiles, clusters, 0, (k_tiles + chunk - 1) / chunk, chunk};
}

}  // namespace ts::ladder::ws
