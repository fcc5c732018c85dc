// timing_file.h — timing recordings (trace/timing_recording.h) to and from
// JSON, checked on reading: what `tilescope timeline` writes and the timeline
// panel opens.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "trace/timing_recording.h"

namespace ts {

class TimingFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// with_blocks: include the per-block arrays (sm, start_ns, end_ns; times
// relative to the earliest start); without, only the description.
nlohmann::json timing_to_json(const TimingRecording& r, bool with_blocks);
// Throws TimingFileError with one line on anything missing, ill-typed or inconsistent.
TimingRecording timing_from_json(const nlohmann::json& j);
void save_timing(const TimingRecording& r, const std::string& path);
TimingRecording load_timing(const std::string& path);

}  // namespace ts
