// refusal.h — what a refused request says: the message of the RecordError
// that `call` must end in, checked to be of the kind wanted.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "kernels/recorder.h"

namespace ts::test {

// call() must throw a RecordError of kind want; its message, or "" (and a test failure) when nothing was thrown.
template <class Call>
std::string refusal_message(Call&& call, RecordError::Kind want) {
  try {
    call();
  } catch (const RecordError& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(want)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted a request that should have been refused";
  return {};
}

}  // namespace ts::test
